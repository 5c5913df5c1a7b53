// A `portaal` for a benchmark: a temporary data folder (or `database`), free ports, its CLI and `portaal serve`,
// optionally with a V8 CPU profile written to `profile` as the server exits. Needs `npm run build` first.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { V8_FLAGS } from '../../apps/server/bin/load-bundle.js';
import { freePort } from './free-port.mjs';

/**
 * The V8 old-space limit that `npm start`, deploy/systemd, deploy/Dockerfile and deploy/kubernetes give `portaal serve`
 * (docs/operations.md "Memory"): without one, V8 on a large machine lets garbage pile up to hundreds of MiB.
 */
export const V8_MEMORY = V8_FLAGS.join(' ');

const portaal = fileURLToPath(new URL('../../apps/server/bin/portaal.js', import.meta.url));

/** `count` distinct free ports (two asks in a row may get the same port back). */
export async function freePorts(count) {
  const ports = new Set();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** `spare` ports free besides the server's, for a reference server of the benchmark. */
export async function benchPortaal({ database, profile, spare = 0 } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-bench-'));
  const [port, adminPort, ...spares] = await freePorts(2 + spare);
  const env = {
    PATH: process.env.PATH,
    // As npm start and deploy/ start it; BENCH_NODE_OPTIONS tries another V8 setting.
    NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS ?? V8_MEMORY,
    DATA_DIR: dataDir,
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    LOG_LEVEL: 'warn',
    ...(database ? { DATABASE_URL: database } : {}),
  };
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  let server;
  return {
    dataDir,
    env,
    publicUrl: `http://127.0.0.1:${port}`,
    adminUrl,
    spares,
    /** Runs a `portaal` command, such as `user create`, and throws with its error output when it fails. */
    run(args) {
      const done = spawnSync(process.execPath, [portaal, ...args], { env, encoding: 'utf8' });
      if (done.status !== 0) throw new Error(`portaal ${args.slice(0, 2).join(' ')} failed: ${done.stderr}`);
    },
    /** Creates a person with a password through `portaal user create`. */
    createUser({ email, password, lastName, org }) {
      const names = ['--first-name', 'Bench', '--last-name', lastName];
      const membership = org ? ['--org', org] : [];
      this.run(['user', 'create', '--email', email, ...names, '--password', password, ...membership]);
    },
    /** Starts `portaal serve` and waits until it is ready. */
    async serve() {
      const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] : [];
      server = spawn(process.execPath, [...profiling, portaal, 'serve'], { env, stdio: 'ignore' });
      for (let i = 0; i < 150; i += 1) {
        if ((await fetch(`${adminUrl}/health/ready`).catch(() => undefined))?.ok) return server;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('portaal serve did not become ready');
    },
    /** Stops the server (its profile is written as it exits) and removes the data folder. */
    async stop() {
      if (server && server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
