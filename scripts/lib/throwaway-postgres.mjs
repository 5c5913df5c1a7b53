// A throwaway PostgreSQL cluster in a temporary folder, for the integration tests. initdb and postgres refuse to run
// as root, so as root they run as the `postgres` system user.
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findPostgresBin } from './postgres-bin.mjs';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function systemUser(name) {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', name]).toString()),
      gid: Number(execFileSync('id', ['-g', name]).toString()),
    };
  } catch {
    return undefined;
  }
}

/**
 * Linux's shared-memory file system, where there is one: the cluster is thrown away anyway, and a run leaves about
 * 120 databases in it (1.7 GB). On disk, starting and removing the cluster took 10 s of a run, here 5.
 */
const memoryBacked = () => (existsSync('/dev/shm') ? '/dev/shm' : undefined);

/** `statements`: with pg_stat_statements loaded, to see which statements the tests made the portal send. */
export async function startThrowawayPostgres({ statements = false } = {}) {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found; run scripts/ensure-test-deps.mjs');
  const dir = mkdtempSync(path.join(memoryBacked() ?? os.tmpdir(), 'portaal-pg-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? systemUser('postgres') : undefined;
  if (asRoot && !owner)
    throw new Error('running as root needs the `postgres` system user (installed with Debian postgresql)');
  if (owner) {
    chmodSync(dir, 0o700);
    chownSync(dir, owner.uid, owner.gid);
  }
  const command = (program, args) =>
    owner ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args];
  const dataDir = path.join(dir, 'data');
  const [initCmd, initArgs] = command('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  execFileSync(initCmd, initArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server = await launchServer();

  // Starts the postmaster on the cluster's port and waits until it accepts connections.
  async function launchServer() {
    const [pgCmd, pgArgs] = command('postgres', [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
      ...(statements
        ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.max=20000']
        : []),
    ]);
    const child = spawn(pgCmd, pgArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (chunk) => (log += chunk));
    const { default: pg } = await import('pg');
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`postgres exited early:\n${log}`);
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.end();
        return child;
      } catch {
        await client.end().catch(() => {});
        if (Date.now() > deadline) throw new Error(`postgres did not start within 30 s:\n${log}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  const postmasterPid = () => Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

  // Fast shutdown: open connections are ended, as in a restart or failover.
  async function stopServer() {
    if (server.exitCode !== null) return;
    const exited = new Promise((r) => server.once('exit', r));
    // runuser does not pass signals on, so signal the postmaster itself.
    process.kill(postmasterPid(), 'SIGINT');
    await exited;
  }

  return {
    url,
    /** The process id of the postmaster, whose children are the server's other processes (for CPU figures). */
    postmasterPid,
    /** Stops the server, keeping the cluster, so that `startServer` can bring it back (an outage). */
    stopServer,
    async startServer() {
      server = await launchServer();
    },
    async stop() {
      await stopServer();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
