import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { nginxArgs, nginxFolder } from '../e2e/support/nginx.js';
import { findNginx } from '../scripts/lib/nginx.mjs';

/**
 * The deployment files cannot be run here (no container runtime, no cluster), so what can be checked is checked:
 * every file parses, every setting they give is one the server reads, every probe path exists, and the systemd unit
 * passes `systemd-analyze verify` where that is installed. deploy/README.md says what was not run.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const yamlFiles = [
  'deploy/compose/compose.yaml',
  ...readdirSync(path.join(root, 'deploy/kubernetes')).map((f) => `deploy/kubernetes/${f}`),
];

/** The variables the configuration loader reads: every upper-case name quoted in it. */
const knownVariables = new Set(
  [...read('apps/server/src/config.ts').matchAll(/'([A-Z][A-Z0-9_]{2,})'/g)].map((m) => m[1]),
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

  const systemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  it.runIf(systemdAnalyze)('has a systemd unit that systemd-analyze accepts', () => {
    const result = spawnSync('systemd-analyze', ['verify', path.join(root, 'deploy/systemd/portaal.service')], {
      encoding: 'utf8',
    });
    expect(result.stderr).not.toMatch(/Unknown (key|section)|Invalid|bad-setting/i);
  });
});
