import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { acceptsConnections } from './free-port.js';
import os from 'node:os';
import path from 'node:path';
import { findApache, findApacheModule } from '../../scripts/lib/apache.mjs';

/** Debian's Apache httpd (installed by scripts/ensure-test-deps.mjs), or the one APACHE_PATH names. */
function apachePath(): string {
  const found = findApache();
  if (!found) throw new Error('Apache httpd is missing: run `node scripts/ensure-test-deps.mjs` (or set APACHE_PATH)');
  return found;
}

/** What the example configurations use; httpd itself has core, unixd and log_config built in. */
const MODULES = [
  'mpm_event',
  'authn_core',
  'authz_core',
  'authz_user',
  'headers',
  'proxy',
  'proxy_http',
  'ssl',
  'auth_openidc',
];

function loadModules(): string[] {
  return MODULES.map((name) => {
    const file = findApacheModule(name);
    if (!file) throw new Error(`Apache's module ${name} is missing: run \`node scripts/ensure-test-deps.mjs\``);
    return `LoadModule ${name}_module ${file}`;
  });
}

/**
 * As root httpd serves through children of another user: `nobody`, in its own group, who may read `dir` (the
 * configuration and the error template) but own nothing.
 */
function runAs(): string[] {
  if (process.getuid?.() !== 0) return [];
  const group = execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim();
  return ['User nobody', `Group #${group}`];
}

/** The main configuration around `site` (virtual hosts), with every file httpd writes in `dir`: no system config. */
function mainConfig(dir: string, site: string, ports: number[]): string {
  return [
    `ServerRoot "${dir}"`,
    `DefaultRuntimeDir "${dir}"`,
    `PidFile "${path.join(dir, 'httpd.pid')}"`,
    `ErrorLog "${path.join(dir, 'error.log')}"`,
    'LogLevel warn',
    'ServerName 127.0.0.1',
    ...loadModules(),
    ...runAs(),
    ...ports.map((port) => `Listen 127.0.0.1:${port}`),
    `Include "${site}"`,
    '',
  ].join('\n');
}

/** A temp folder for one httpd, with the site's configuration, the main one around it, and `files` beside them. */
export function apacheFolder(
  site: string,
  ports: number[],
  files: Record<string, string> = {},
): { dir: string; config: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaal-apache-'));
  chmodSync(dir, 0o755);
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content, { mode: 0o644 });
  writeFileSync(path.join(dir, 'site.conf'), site);
  const config = path.join(dir, 'httpd.conf');
  writeFileSync(config, mainConfig(dir, path.join(dir, 'site.conf'), ports));
  return { dir, config };
}

/** The arguments that keep httpd in the foreground (its process is the one started) with only this configuration. */
export const apacheArgs = (config: string) => ['-f', config, '-D', 'FOREGROUND'];

export interface Apache {
  /** Everything httpd wrote to its error log so far. */
  errorLog(): string;
  /** Stops httpd (SIGTERM to the process this started, which stops its children) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts Debian's Apache httpd in the foreground, a child of the test, with `site` (virtual hosts) listening on
 * `ports` of the loopback interface; `files` are written beside the configuration, in its server root.
 */
export async function startApache(site: string, ports: number[], files: Record<string, string> = {}) {
  const { dir, config } = apacheFolder(site, ports, files);
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  let output = '';
  const child: ChildProcess = spawn(apachePath(), apacheArgs(config), { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  async function stop() {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  const deadline = Date.now() + 10_000;
  try {
    for (const port of ports) {
      while (!(await acceptsConnections(port))) {
        if (child.exitCode !== null) throw new Error(`httpd exited with ${child.exitCode}:\n${output}${errorLog()}`);
        if (Date.now() > deadline)
          throw new Error(`httpd did not listen on ${port} within 10 s:\n${output}${errorLog()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } catch (error) {
    // Nothing of a failed start stays behind: no process, no folder.
    await stop();
    throw error;
  }
  const apache: Apache = { errorLog, stop };
  return apache;
}
