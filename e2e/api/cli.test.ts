import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../support/database.js';
import { freePorts } from '../support/free-port.js';
import { OWASP_HASHING, PORTAAL_ARGS, processEnv, startPortaal, type Portaal } from '../support/portaal.js';
import { newBrowser } from '../support/ory.js';
import { V8_FLAGS } from '../../apps/server/bin/load-bundle.js';
import { loginWithPassword } from '../support/flows.js';

function portaal(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [...PORTAAL_ARGS, ...args], {
    env: { ...processEnv(), ...env },
    encoding: 'utf8',
    // A command that hangs fails its test instead of blocking this worker, and with it the whole run.
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the portaal CLI', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-cli-'));
    const databaseUrl = await testDatabaseUrl();
    env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops on an invalid setting with one line naming the variable and exit code 78', () => {
    const result = portaal(['migrate'], { ...env, PORT: 'negentig' });
    expect(result.status).toBe(78);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it("loads the bundle with its code cache under the deploy files' V8 flags, and compiles it anew under others", () => {
    const loader = new URL('../../apps/server/bin/load-bundle.js', import.meta.url).href;
    const taken = (flags: string[]) =>
      spawnSync(
        process.execPath,
        [
          ...flags,
          '--input-type=module',
          '-e',
          `import * as l from '${loader}'; l.loadBundle(); console.log(l.codeCacheTaken);`,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      ).stdout.trim();
    expect(taken(V8_FLAGS)).toBe('true');
    expect(taken(['--max-old-space-size=300'])).toBe('false');
  });

  it('migrates, then reports that the database is up to date', () => {
    const first = portaal(['migrate'], env);
    expect(first.status, first.stderr).toBe(0);
    const second = portaal(['migrate'], env);
    expect(second.stdout).toContain('Database is al bijgewerkt.');
  });

  it('creates a user who can sign in, and refuses the same e-mail twice in one line', async () => {
    const args = [
      'user',
      'create',
      '--email',
      'cli@voorbeeldstad.nl',
      '--first-name',
      'Cor',
      '--last-name',
      'Commandoregel',
      '--password',
      'Grachten-Fiets-Brug-31',
    ];
    const created = portaal(args, env);
    expect(created.status, created.stderr).toBe(0);
    const again = portaal(args, env);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe('Fout: Er bestaat al een account met dit e-mailadres.\n');

    const server = await startPortaal({ env });
    try {
      const session = await loginWithPassword(
        newBrowser(server.publicUrl),
        'cli@voorbeeldstad.nl',
        'Grachten-Fiets-Brug-31',
      );
      expect(session.session?.identity?.traits.name).toEqual({ first: 'Cor', last: 'Commandoregel' });
    } finally {
      await server.stop();
    }
  });

  it.each([
    [
      ['--email', 'kort@voorbeeldstad.nl', '--password', 'kort1'],
      'Fout: Het wachtwoord moet minstens 8 tekens hebben.',
    ],
    [
      ['--email', 'lijkt@voorbeeldstad.nl', '--password', 'lijkt@voorbeeldstad.nl1'],
      'Fout: Het wachtwoord lijkt te veel op het e-mailadres.',
    ],
    [
      ['--email', 'geen-adres', '--password', 'Grachten-Fiets-Brug-31'],
      'Fout: Het e-mailadres is geen geldig e-mailadres.',
    ],
    [['--email', 'a@voorbeeldstad.nl', '--onzin'], 'Fout: de opties kloppen niet'],
  ])('refuses %j in one Dutch line', (extra, line) => {
    const result = portaal(['user', 'create', '--first-name', 'Cor', '--last-name', 'Commandoregel', ...extra], env);
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.startsWith(line)).toBe(true);
  });

  it('rotates the OpenID Connect signing keys, keeping the previous one, and never loads the provider', () => {
    const first = portaal(['oidc', 'rotate-keys'], env);
    expect(first.status, first.stderr).toBe(0);
    const second = portaal(['oidc', 'rotate-keys'], env);
    const kid = (output: string) => /Nieuwe sleutel (\S+) aangemaakt/.exec(output)?.[1];
    const stored = JSON.parse(readFileSync(path.join(dataDir, 'oidc-jwks.json'), 'utf8')).keys.map(
      (key: { kid: string }) => key.kid,
    );
    expect(stored).toEqual([kid(second.stdout), kid(first.stdout)]);
    expect(`${first.stdout}${first.stderr}`).not.toContain('oidc-provider');
    const short = portaal(['migrate'], { ...env, OIDC_CLIENT_SECRET_GRAFANA: 'kort' });
    expect(short.status).toBe(78);
    expect(short.stderr).toContain('OIDC_CLIENT_SECRET_GRAFANA');
  });

  it('ends with exit code 1 and one line when a port is in use, instead of living on half started', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const [port] = await freePorts(1);
    try {
      const adminPort = String((taken.address() as net.AddressInfo).port);
      const result = spawnSync(process.execPath, [...PORTAAL_ARGS, 'serve'], {
        env: { ...processEnv(), ...env, PORT: String(port), ADMIN_PORT: adminPort, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('de poort is al in gebruik');
    } finally {
      taken.close();
    }
  });

  it('refuses an unknown command with the usage text', () => {
    const result = portaal(['onzin'], env);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Onbekende opdracht 'onzin'.");
  });
});

describe('two demo servers side by side', () => {
  let servers: Portaal[] = [];
  beforeAll(async () => {
    servers = [
      await startPortaal({ args: ['--demo'], smtp: false, env: OWASP_HASHING }),
      await startPortaal({ args: ['--demo'], smtp: false }),
    ];
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('each prints how to sign in and serves its own demo accounts', async () => {
    for (const server of servers) {
      expect(server.output()).toContain('beheerder@voorbeeldstad.nl');
      expect(server.output()).toContain(`E-mails lezen: ${server.adminUrl}/mail`);
      const result = await loginWithPassword(
        newBrowser(server.publicUrl),
        'medewerker@voorbeeldstad.nl',
        'Tulpen-Molen-Gracht-7',
      );
      expect(result.session ?? result.redirectBrowserTo).toBeTruthy();
    }
    expect(new Set(servers.map((s) => s.dataDir)).size).toBe(2);
  });

  it("says at its start when passwords are hashed more lightly than OWASP's choice, as the tests do", () => {
    const light = 'Let op: wachtwoorden worden gehasht met argon2id m=64KB t=1, lichter dan OWASP aanraadt';
    expect(servers[0]!.output()).not.toContain('Let op: wachtwoorden');
    expect(servers[1]!.output()).toContain(light);
  });
});
