// Loads the server bundle (apps/server/dist/portaal.cjs) with the V8 code cache that `npm run build` made beside it
// (docs/architecture.md#one-file-to-start). V8 takes the cache only when the process runs with the flags it was made
// with, the ones the deploy files give; otherwise it compiles the bundle as `require` would.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/** The V8 flags of `npm start`, deploy/Dockerfile, the Kubernetes manifest and the systemd unit. */
export const V8_FLAGS = ['--max-old-space-size=512', '--max-semi-space-size=8'];

const BUNDLE = fileURLToPath(new URL('../dist/portaal.cjs', import.meta.url));
const CACHE = `${BUNDLE}.cache`;

/** The bundle as one script, in Node's own CommonJS wrapper (on its first line, so line numbers stay). */
function compile(cachedData) {
  const source = fs.readFileSync(BUNDLE, 'utf8');
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  return new vm.Script(wrapped, { filename: BUNDLE, cachedData });
}

function run(script) {
  const module = { exports: {} };
  script
    .runInThisContext()
    .call(module.exports, module.exports, createRequire(BUNDLE), module, BUNDLE, path.dirname(BUNDLE));
  return module.exports;
}

function readCache() {
  try {
    return fs.readFileSync(CACHE);
  } catch {
    return undefined;
  }
}

/** Whether V8 took the code cache at the last `loadBundle` (for the tests). */
export let codeCacheTaken = false;

/** The bundle's exports (`main`). */
export function loadBundle() {
  const cachedData = readCache();
  const script = compile(cachedData);
  codeCacheTaken = cachedData !== undefined && !script.cachedDataRejected;
  return run(script);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * Starts `portaal serve` in this process on a new SQLite database in a temporary folder, asks it a few questions a
 * first visitor asks, and stops it: what V8 compiled meanwhile is what every start compiles.
 */
async function warmUp(main) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portaal-cache-'));
  const [port, adminPort] = [await freePort(), await freePort()];
  // Only these settings: a DATABASE_URL or SMTP_URL of the shell that builds must not be used here.
  process.env = {
    PORT: `${port}`,
    ADMIN_PORT: `${adminPort}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    SHUTDOWN_DRAIN: '0',
  };
  // `serve` settles only once stopped; before the server is ready that is a failure (already printed in one line).
  let ended;
  const served = main(['serve']).then(
    () => {
      ended ??= new Error(`portaal serve ended with exit code ${process.exitCode}`);
    },
    (error) => {
      ended = error;
    },
  );
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (ended) throw ended;
      const ready = await fetch(`http://127.0.0.1:${adminPort}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error('the server did not become ready within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const page of ['/login', '/self-service/login/browser', '/self-service/login/api', '/sessions/whoami']) {
      await fetch(`http://127.0.0.1:${port}${page}`, { redirect: 'manual' }).then((r) => r.arrayBuffer());
    }
  } finally {
    // `serve` stops as a supervisor stops it.
    if (!ended) process.kill(process.pid, 'SIGTERM');
    await served;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * For the build: compiles the bundle, runs it through a start of the server and its first requests, then writes what
 * V8 compiled as the cache. Run it with `V8_FLAGS`.
 */
export async function writeCodeCache() {
  const script = compile(undefined);
  await warmUp(run(script).main);
  fs.writeFileSync(CACHE, script.createCachedData());
}
