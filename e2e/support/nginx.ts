import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { acceptsConnections } from './free-port.js';
import os from 'node:os';
import path from 'node:path';
import { findNginx } from '../../scripts/lib/nginx.mjs';

/** Debian's nginx (installed by scripts/ensure-test-deps.mjs), or the one NGINX_PATH names. */
function nginxPath(): string {
  const found = findNginx();
  if (!found) throw new Error('nginx is missing: run `node scripts/ensure-test-deps.mjs` (or set NGINX_PATH)');
  return found;
}

/**
 * The main configuration around `site` (what belongs in nginx's http block), with every file nginx writes in `dir`.
 * As root nginx runs its workers as another user: `nobody`, who may enter `dir` and owns the temp folders nginx
 * makes there itself.
 */
function mainConfig(dir: string, site: string): string {
  const asRoot = process.getuid?.() === 0;
  return [
    asRoot ? 'user nobody nogroup;' : '',
    'worker_processes 1;',
    `error_log ${dir}/error.log;`,
    'events { worker_connections 128; }',
    'http {',
    `  access_log ${dir}/access.log;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${dir}/${kind};`),
    `  include ${site};`,
    '}',
    '',
  ].join('\n');
}

/** A temp folder for one nginx, with the site's configuration and the main one around it. */
export function nginxFolder(site: string): { dir: string; config: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaal-nginx-'));
  chmodSync(dir, 0o755);
  writeFileSync(path.join(dir, 'site.conf'), site);
  const config = path.join(dir, 'nginx.conf');
  writeFileSync(config, mainConfig(dir, path.join(dir, 'site.conf')));
  return { dir, config };
}

/** The arguments that keep nginx in the foreground, all its files in `dir`. */
export const nginxArgs = (dir: string, config: string) => [
  '-p',
  dir,
  '-e',
  path.join(dir, 'error.log'),
  '-c',
  config,
  '-g',
  `daemon off; pid ${path.join(dir, 'nginx.pid')};`,
];

export interface Nginx {
  /** Everything nginx wrote to its error log so far. */
  errorLog(): string;
  /** Stops nginx (SIGQUIT, by the pid of its master process) and removes its folder. */
  stop(): Promise<void>;
}

/** Starts Debian's nginx in the foreground, a child of the test, with `site` in its http block, on `port`. */
export async function startNginx(site: string, port: number): Promise<Nginx> {
  const { dir, config } = nginxFolder(site);
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  let output = '';
  const child: ChildProcess = spawn(nginxPath(), nginxArgs(dir, config), { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 10_000;
  while (!(await acceptsConnections(port))) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${output}${errorLog()}`);
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} within 10 s:\n${output}${errorLog()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    errorLog,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
