import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { apacheArgs, apacheFolder } from '../e2e/support/apache.js';
import { nginxArgs, nginxFolder } from '../e2e/support/nginx.js';
import { findApache, findApacheModule } from '../scripts/lib/apache.mjs';
import { findNginx } from '../scripts/lib/nginx.mjs';
import { startPortaal, type Portaal } from '../e2e/support/portaal.js';
import { V8_FLAGS } from '../apps/server/bin/load-bundle.js';

/**
 * The deployment files cannot be run here (no container runtime, no cluster), so what can be checked is checked:
 * every file parses, every setting they give is one the server reads, every probe path exists, and the systemd unit
 * passes `systemd-analyze verify` where that is installed. deploy/README.md says what was not run.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
/** The non-test TypeScript sources of each package or app under `folders`, relative to the repository. */
const sourceFiles = (folders: string[]) =>
  folders.flatMap((folder) =>
    readdirSync(path.join(root, folder)).flatMap((name) => {
      const src = path.join(root, folder, name, 'src');
      if (!existsSync(src)) return [];
      return readdirSync(src, { recursive: true })
        .map(String)
        .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|test-/.test(file))
        .map((file) => path.posix.join(folder, name, 'src', file.split(path.sep).join('/')));
    }),
  );
const yamlFiles = [
  'deploy/compose/compose.yaml',
  ...readdirSync(path.join(root, 'deploy/kubernetes')).map((f) => `deploy/kubernetes/${f}`),
];

/** The variables the configuration loader reads: every upper-case name quoted in it or in the OIDC settings. */
const knownVariables = new Set(
  ['apps/server/src/config.ts', 'apps/server/src/oidc-settings.ts'].flatMap((file) =>
    [...read(file).matchAll(/'([A-Z][A-Z0-9_]{2,})'/g)].map((m) => m[1]),
  ),
);
// Read by Node itself, not by the portal.
knownVariables.add('NODE_ENV');

function documents(file: string): Record<string, unknown>[] {
  const parsed = parseAllDocuments(read(file));
  for (const doc of parsed) expect(doc.errors, file).toEqual([]);
  return parsed.map((doc) => doc.toJS() as Record<string, unknown>).filter(Boolean);
}

/** The portal's settings a file gives: compose's portaal environment, the ConfigMap, the Secret, container env. */
function variablesIn(file: string): string[] {
  return documents(file).flatMap((doc) => {
    const portaal = doc['x-portaal'] as { environment?: Record<string, string> } | undefined;
    if (portaal) return Object.keys(portaal.environment ?? {});
    const kind = doc.kind as string;
    if (kind === 'ConfigMap') return Object.keys((doc.data as object) ?? {});
    if (kind === 'Secret') return Object.keys((doc.stringData as object) ?? {});
    if (kind === 'Deployment') {
      const spec = doc.spec as { template: { spec: { containers: { env?: { name: string }[] }[] } } };
      return spec.template.spec.containers.flatMap((c) => (c.env ?? []).map((e) => e.name));
    }
    return [];
  });
}

describe('deployment files', () => {
  it.each(yamlFiles)('%s parses as YAML', (file) => {
    expect(documents(file).length).toBeGreaterThan(0);
  });

  it.each(yamlFiles)('%s sets only variables the server reads', (file) => {
    const names = variablesIn(file);
    expect(names.filter((name) => !knownVariables.has(name))).toEqual([]);
    if (!file.includes('secret')) expect(names).toContain('PUBLIC_URL');
  });

  it('starts the server with the V8 flags its code cache is made under, or V8 would not take the cache', () => {
    const starts = {
      'package.json': /node ([^"]*?) ?apps\/server\/bin\/portaal\.js serve/,
      'deploy/Dockerfile': /CMD \["node", (.*?),? ?"apps\/server\/bin\/portaal\.js"/,
      'deploy/kubernetes/portaal.yaml': /\["node", (.*?),? ?"apps\/server\/bin\/portaal\.js"/,
      'deploy/systemd/portaal.service': /ExecStart=\/usr\/bin\/node ([^\n]*?) ?apps\/server\/bin\/portaal\.js/,
    };
    for (const [file, start] of Object.entries(starts)) {
      const flags = start.exec(read(file))?.[1]?.replace(/[",]/g, '').split(' ');
      expect(flags, file).toEqual(V8_FLAGS);
    }
  });

  it('sets in the Dockerfile and the systemd unit only variables the server reads', () => {
    const docker = [...read('deploy/Dockerfile').matchAll(/^\s+([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    const unit = [...read('deploy/systemd/portaal.service').matchAll(/^Environment=([A-Z][A-Z0-9_]+)=/gm)].map(
      (m) => m[1]!,
    );
    expect(docker.length).toBeGreaterThan(3);
    expect([...docker, ...unit].filter((name) => !knownVariables.has(name))).toEqual([]);
  });

  it('copies into the image only files the repository has or the build makes', () => {
    const sources = [...read('deploy/Dockerfile').matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) =>
      m[1]!.split(' '),
    );
    expect(sources.filter((source) => !existsSync(path.join(root, source)))).toEqual([]);
    const built = [...read('deploy/Dockerfile').matchAll(/^COPY --from=build \/app\/(\S+)/gm)].map((m) => m[1]!);
    const madeByBuild = (file: string) => /(^|\/)dist$/.test(file) || file === 'node_modules';
    expect(built.filter((file) => !madeByBuild(file) && !existsSync(path.join(root, file)))).toEqual([]);
  });

  it("copies into the build stage every file its npm commands run, before they run (the build's scripts too)", () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    /** The files `node …` runs in an npm script, following `npm run …` into the scripts it names. */
    const filesRunBy = (command: string): string[] => [
      ...[...command.matchAll(/\bnode (?:--\S+ )*(\S+\.m?[jt]s)\b/g)].map((m) => m[1]!),
      ...[...command.matchAll(/\bnpm run (\S+)/g)].flatMap((m) => filesRunBy(scripts[m[1]!] ?? '')),
    ];
    const buildStage = read('deploy/Dockerfile')
      .split(/^FROM /m)[1]!
      .split('\n');
    const copied: string[] = [];
    const missing: string[] = [];
    for (const line of buildStage) {
      const copy = /^COPY (?!--from)(.+) \S+$/.exec(line);
      if (copy) copied.push(...copy[1]!.split(' ').map((source) => source.replace(/\/$/, '')));
      if (!line.startsWith('RUN ')) continue;
      for (const file of filesRunBy(line)) {
        const there = copied.some((source) => file === source || file.startsWith(`${source}/`));
        if (!there) missing.push(`${file} (${line})`);
      }
    }
    expect(filesRunBy('npm run build')).toContain('scripts/build.mjs');
    expect(missing).toEqual([]);
    // What the sources name outside apps/ and packages/ (a page's text, the Ory configuration the export carries).
    const named = sourceFiles(['apps', 'packages']).flatMap((file) =>
      [...read(file).matchAll(/['"`](\.{1,2}\/[^'"`?]*)/g)]
        .map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!)))
        .filter((target) => !/^(apps|packages)\//.test(target)),
    );
    expect(named).toContain('docs/toegankelijkheidsverklaring.md');
    const uncopied = named.filter(
      (target) => !copied.some((source) => target === source || target.startsWith(`${source}/`)),
    );
    expect(uncopied).toEqual([]);
  });

  it('installs in the image as the repository does: the npm configuration is copied before npm ci', () => {
    const buildStage = read('deploy/Dockerfile').split(/^FROM /m)[1]!;
    const install = buildStage.indexOf('RUN npm ci');
    const npmrc = /^COPY (?!--from)(.*\s)?\.npmrc\s/m.exec(buildStage);
    expect(install).toBeGreaterThan(0);
    expect(npmrc?.index ?? Number.POSITIVE_INFINITY).toBeLessThan(install);
  });

  it('probes paths the admin listener serves', () => {
    const health = read('apps/server/src/health.ts');
    const probed = new Set(
      [
        ...read('deploy/kubernetes/portaal.yaml').matchAll(/path: (\/[\w/]+)/g),
        ...read('deploy/Dockerfile').matchAll(/4456(\/health\/\w+)/g),
      ].map((m) => m[1]!),
    );
    expect([...probed].sort()).toEqual(['/health/alive', '/health/ready', '/metrics']);
    for (const probe of probed) expect(health).toContain(`'${probe}'`);
  });

  it('gives the orchestrators more time to stop than the drain and the timeout together', () => {
    const grace = Number(/terminationGracePeriodSeconds: (\d+)/.exec(read('deploy/kubernetes/portaal.yaml'))![1]);
    const stop = Number(/TimeoutStopSec=(\d+)/.exec(read('deploy/systemd/portaal.service'))![1]);
    expect(grace).toBeGreaterThan(5 + 15);
    expect(stop).toBeGreaterThan(15);
  });

  it('has a Traefik example that hands on every identity header and takes no X-Forwarded-* from clients', () => {
    const [dynamic] = documents('deploy/traefik/forward-auth.yml') as {
      http: { middlewares: Record<string, { forwardAuth: Record<string, unknown> }> };
    }[];
    const forwardAuth = dynamic!.http.middlewares['portaal-forward-auth']!.forwardAuth;
    const answered = [
      ...read('packages/users-api/src/forward-auth/identity-headers.ts').matchAll(/'(X-Portaal-[\w-]+)'/g),
    ]
      .map((m) => m[1]!)
      .filter((name) => name !== 'X-Portaal-Sign-In');
    expect(forwardAuth.authResponseHeaders).toEqual(answered);
    expect(forwardAuth.trustForwardHeader).toBe(false);
    expect(new URL(forwardAuth.address as string).pathname).toBe('/api/forward-auth');
    // nginx copies the same headers, each replacing what the browser sent.
    const nginx = read('deploy/nginx/forward-auth.conf');
    for (const name of answered) expect(nginx).toMatch(new RegExp(`proxy_set_header ${name} \\$portaal_`));
  });

  const nginx = findNginx();
  it.runIf(nginx)('has an nginx example for forward authentication that nginx -t accepts', () => {
    const { dir, config } = nginxFolder(read('deploy/nginx/forward-auth.conf'));
    try {
      const result = spawnSync(nginx!, ['-t', ...nginxArgs(dir, config)], { encoding: 'utf8' });
      expect(result.stderr).toContain('syntax is ok');
      expect(result.status, result.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const apache = findApache() && findApacheModule('auth_openidc') ? findApache() : undefined;
  it.runIf(apache)('has an Apache example for mod_auth_openidc that apache2 -t accepts', () => {
    // No certificate here: the example's own is a placeholder. e2e/browser/apache-oidc.test.ts runs the rest.
    const site = read('deploy/apache/mod-auth-openidc.conf').replace(/^\s*SSL\w+ .*\n/gm, '');
    expect(site).toContain('OIDCHTMLErrorTemplate');
    expect(site).not.toMatch(/^\s*OIDCDefaultURL/m);
    const { dir, config } = apacheFolder(site, []);
    try {
      const result = spawnSync(apache!, ['-t', ...apacheArgs(config)], { encoding: 'utf8' });
      expect(result.stderr).toContain('Syntax OK');
      expect(result.status, result.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has a Dutch error page for mod_auth_openidc with exactly its two markers', () => {
    const template = read('deploy/apache/inloggen-mislukt.html');
    expect(template).toContain('<html lang="nl">');
    // The module fills the page in with printf: any other percent sign would take an argument it does not pass.
    expect(template.match(/%/g)).toEqual(['%', '%']);
    expect(template.match(/%s/g)).toHaveLength(2);
  });

  const systemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  it.runIf(systemdAnalyze)('has a systemd unit that systemd-analyze accepts', () => {
    const result = spawnSync('systemd-analyze', ['verify', path.join(root, 'deploy/systemd/portaal.service')], {
      encoding: 'utf8',
    });
    expect(result.stderr).not.toMatch(/Unknown (key|section)|Invalid|bad-setting/i);
  });

  it.runIf(systemdAnalyze)('has a hardened systemd unit: an exposure of at most 3, files for its user only', () => {
    const unit = path.join(root, 'deploy/systemd/portaal.service');
    const result = spawnSync('systemd-analyze', ['security', '--offline=yes', '--no-pager', unit], {
      encoding: 'utf8',
    });
    const exposure = /Overall exposure level for \S+: ([0-9.]+)/.exec(result.stdout);
    expect(exposure, result.stdout + result.stderr).not.toBeNull();
    expect(Number(exposure![1])).toBeLessThanOrEqual(3);
    expect(read('deploy/systemd/portaal.service')).toMatch(/^UMask=0077$/m);
  });
});

type Manifest = Record<string, any>;
const kubernetes = () => documents('deploy/kubernetes/portaal.yaml') as Manifest[];
const ofKind = (kind: string) => kubernetes().find((doc) => doc.kind === kind)!;

describe('replicas and the admin listener', () => {
  it('gives every replica the same OIDC signing keys from one secret', () => {
    const compose = documents('deploy/compose/compose.yaml')[0] as Manifest;
    // Both processes are the one `x-portaal` anchor, so one variable from .env reaches both.
    expect(compose['x-portaal'].environment.OIDC_JWKS).toMatch(/^\$\{OIDC_JWKS:\?/);
    expect(compose.services['portaal-1']).toEqual(compose.services['portaal-2']);
    const env = ofKind('Deployment').spec.template.spec.containers[0].env as Manifest[];
    expect(env.find((e) => e.name === 'OIDC_JWKS')?.valueFrom).toEqual({
      secretKeyRef: { name: 'portaal-secrets', key: 'OIDC_JWKS' },
    });
    expect(variablesIn('deploy/kubernetes/secret.example.yaml')).toContain('OIDC_JWKS');
  });

  it('keeps the admin listener, which has no authentication, away from other pods and containers', () => {
    expect(read('deploy/Dockerfile')).toMatch(/ADMIN_HOST=127\.0\.0\.1/);
    const policy = ofKind('NetworkPolicy');
    expect(policy.spec.podSelector).toEqual(ofKind('Deployment').spec.selector);
    expect(policy.spec.policyTypes).toContain('Ingress');
    const rules = policy.spec.ingress as Manifest[];
    const admitting = (port: number) => rules.filter((rule) => rule.ports.some((p: Manifest) => p.port === port));
    // Every rule that admits to the admin port names who may, by a label given on purpose.
    expect(admitting(4456).length).toBeGreaterThan(0);
    for (const rule of admitting(4456)) {
      expect(rule.from?.length).toBeGreaterThan(0);
      for (const peer of rule.from) expect(peer.podSelector?.matchLabels).toEqual({ 'portaal-admin': 'allowed' });
    }
    expect(ofKind('Service').spec.ports.map((p: Manifest) => p.targetPort)).toEqual(['public']);
  });

  const started: Portaal[] = [];
  afterAll(async () => {
    await Promise.all(started.map((portaal) => portaal.stop()));
  });

  it('publishes one key set from both processes started as the compose file starts them', async () => {
    const jwks = spawnSync(process.execPath, [path.join(root, 'apps/server/bin/portaal.js'), 'oidc', 'new-jwks'], {
      encoding: 'utf8',
    });
    expect(jwks.status).toBe(0);
    const dotEnv: Record<string, string> = { SECRETS_COOKIE: 'x'.repeat(40), OIDC_JWKS: jwks.stdout.trim() };
    const composeEnv = (documents('deploy/compose/compose.yaml')[0] as Manifest)['x-portaal'].environment as Record<
      string,
      string
    >;
    // What compose gives each container, with .env filled in; each container has its own data directory, as each
    // `startPortaal` has. The database, mail server and address are this machine's.
    const env = Object.fromEntries(
      Object.entries(composeEnv)
        .filter(([name]) => !['DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL'].includes(name))
        .map(([name, value]) => [name, value.replace(/^\$\{([A-Z_]+):\?.*\}$/, (_m, key: string) => dotEnv[key]!)]),
    );
    started.push(await startPortaal({ env }), await startPortaal({ env }));
    const published = await Promise.all(
      started.map(async (portaal) => (await fetch(`${portaal.publicUrl}/oidc/jwks`)).json()),
    );
    expect(published[0].keys.length).toBe(1);
    expect(published[1]).toEqual(published[0]);
  }, 60_000);
});
