import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { V8_FLAGS } from '../../apps/server/bin/load-bundle.js';
import { testDatabaseUrl } from './database.js';
import { freePorts } from './free-port.js';
import { startMailSink, type MailSink } from './mail-sink.js';
import { testSigningKeys } from './signing-keys.js';

/** Where a coverage run (scripts/coverage.mjs) wants the V8 coverage of every `portaal` process; unset otherwise. */
const coverageDir = process.env.PORTAAL_COVERAGE_DIR;

/** The `portaal` command the tests run: the product's, or in a coverage run its separate modules. */
const PORTAAL_BIN = fileURLToPath(
  new URL(coverageDir ? './portaal-modules.mjs' : '../../apps/server/bin/portaal.js', import.meta.url),
);

/** `node`'s arguments before a command: the deploy files' V8 flags, under which V8 takes the bundle's code cache. */
export const PORTAAL_ARGS = [...V8_FLAGS, PORTAAL_BIN];

/** What a `portaal` process started by a test needs in its environment besides its settings. */
export const processEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  ...(coverageDir ? { NODE_V8_COVERAGE: coverageDir } : {}),
});

export interface Portaal {
  publicUrl: string;
  adminUrl: string;
  dataDir: string;
  /** The environment the process runs with: CLI commands given the same one work on the same database. */
  env: Record<string, string>;
  mail: MailSink;
  /** Everything the process printed so far. */
  output(): string;
  /** The exit code once the process has ended by itself, otherwise null. */
  exitCode(): number | null;
  /** Stops the process abruptly (SIGKILL) and waits until it is gone. */
  kill(): Promise<void>;
  /** Freezes the process (SIGSTOP) where it is, so that it runs no further step until it is killed. */
  freeze(): void;
  /** Sends SIGTERM, as a supervisor does, and answers the exit code once the process has ended. */
  terminate(): Promise<number | null>;
  /** Starts the process again on the same ports, data directory and database. */
  restart(): Promise<void>;
  /** Stops the process, the mail sink and removes the data directory. */
  stop(): Promise<void>;
}

export interface PortaalOptions {
  /** Environment of the process; a function of the public address when the environment names it. */
  env?: Record<string, string> | ((publicUrl: string) => Record<string, string>);
  /** Without SMTP the server keeps mails in its development mailbox instead. */
  smtp?: boolean;
  args?: string[];
  /** The public listener's port, chosen beforehand (to name the portal in another server's configuration). */
  port?: number;
}

/**
 * The product's own password hashing (OWASP's argon2id, 20 ms of CPU a hash on this machine class), for the tests
 * whose point is its cost: equal time for unknown addresses, a full hashing queue. The others hash lightly (below).
 */
export const OWASP_HASHING = { HASHERS_ARGON2_MEMORY: '19MB', HASHERS_ARGON2_ITERATIONS: '2' };

/** What `portaal serve` prints once both of its listeners listen. */
const READY_BANNER = 'Datavoorzieningen Portaal draait op';

/** Start attempts when ports chosen as free were taken meanwhile by another test's process. */
const PORT_ATTEMPTS = 3;

/** Starts a real `portaal serve` process on free ports with its own data directory and SMTP sink. */
export async function startPortaal(options: PortaalOptions = {}, attempt = 1): Promise<Portaal> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-test-'));
  const mail = await startMailSink();
  const [free, adminPort] = await freePorts(2);
  const port = options.port ?? free!;
  const databaseUrl = await testDatabaseUrl({ migrated: true });
  const publicUrl = `http://127.0.0.1:${port}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const env: Record<string, string> = {
    ...processEnv(),
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Tests stop their servers with SIGTERM; only the shutdown test waits for a drain.
    SHUTDOWN_DRAIN: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(options.smtp === false ? {} : { SMTP_URL: mail.url }),
    // A test that needs keys generated at first start passes OIDC_JWKS ''.
    OIDC_JWKS: await testSigningKeys(),
    // Argon2id at a test's cost, as Kratos' test setups lower their hasher's: the tests sign in and create people
    // thousands of times, and hashing at OWASP's cost took a fifth of the integration runs' time.
    HASHERS_ARGON2_MEMORY: '64KB',
    HASHERS_ARGON2_ITERATIONS: '1',
    ...(typeof options.env === 'function' ? options.env(publicUrl) : options.env),
  };
  let output = '';
  let child: ChildProcess | undefined;

  async function launch() {
    const printedBefore = output.length;
    const started = spawn(process.execPath, [...PORTAAL_ARGS, 'serve', ...(options.args ?? [])], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`portaal exited with ${started.exitCode}:\n${output}`);
      try {
        // Ready is this process's word, not the port's: when another test's process took one of the ports a moment
        // earlier, that process answers there while this one fails to listen and ends.
        const listening = output.slice(printedBefore).includes(READY_BANNER);
        if (listening && (await fetch(`${adminUrl}/health/ready`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`portaal did not become ready within 30 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function halt(signal: NodeJS.Signals) {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((r) => current.once('exit', r));
    current.kill(signal);
    // A frozen process (`freeze`) would keep SIGTERM pending for ever, and `stop` with it: let it take the signal.
    current.kill('SIGCONT');
    await exited;
  }

  try {
    await launch();
  } catch (error) {
    // Two test files may be given the same free port before either listens: choose others and start again.
    if (!(attempt < PORT_ATTEMPTS && options.port === undefined && output.includes('EADDRINUSE'))) throw error;
    await halt('SIGKILL');
    await mail.close();
    rmSync(dataDir, { recursive: true, force: true });
    return startPortaal(options, attempt + 1);
  }
  return {
    publicUrl,
    adminUrl,
    dataDir,
    env,
    mail,
    output: () => output,
    exitCode: () => child?.exitCode ?? null,
    kill: () => halt('SIGKILL'),
    freeze: () => void child?.kill('SIGSTOP'),
    async terminate() {
      await halt('SIGTERM');
      return child?.exitCode ?? null;
    },
    restart: launch,
    async stop() {
      await halt('SIGTERM');
      await mail.close();
      rmSync(dataDir, { recursive: true, force: true });
      // A handler that answers twice sent its client one answer and went on as if it had not: always a bug.
      const twice = output.split('\n').find((line) => line.includes('FST_ERR_REP_ALREADY_SENT'));
      if (twice) throw new Error(`portaal answered a request twice:\n${twice}`);
    },
  };
}
