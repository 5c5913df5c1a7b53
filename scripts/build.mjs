#!/usr/bin/env node
// `npm run build`: the server (tsc -b over the packages, then scripts/bundle-server.mjs) and the web app (its type
// check and its Vite build), side by side, since tsc uses one core: 33 instead of 49 s from a clean checkout on two
// cores. The bundle waits for the web app's build, because making its code cache starts the server, which serves it.
// `--check` (npm test) also type-checks the tests and runs `npm run lint` beside them: 48 s, against 52 one after the
// other (the two cores are full by then). better-sqlite3's SQLite is compiled here too, beside the rest, when npm
// installed it without (`ignore-scripts` in .npmrc): alone in `npm install` it kept one core busy for 60 to 100 s
// while the other waited. The server's bundle waits for it, since making the code cache starts the server; the other
// steps yield the cores to it meanwhile (one C file, so one core: the others need less CPU than it does).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILE_SQLITE, sqliteLoads } from './lib/sqlite-compiled.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = path.join(root, 'apps/web');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');

/** Runs `node args…` in `cwd`; its output is shown once it ends, so that the steps' lines do not mix. */
function step(args, cwd = root) {
  return run(process.execPath, args, cwd);
}

function run(command, args, cwd = root, niceness = yielding) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    if (niceness > 0 && child.pid !== undefined) yieldCores(child.pid, niceness);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      process.stdout.write(output);
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(args[0])} ${args.slice(1).join(' ')} ended with ${code}`));
    });
  });
}

/** Lowers a step's priority; where the system refuses (a sandbox without it), the step runs as it is. */
function yieldCores(pid, niceness) {
  try {
    os.setPriority(pid, niceness);
  } catch {}
}

const compiling = !(await sqliteLoads(root));
/** The niceness of the steps other than the compile: they yield to it while it runs. */
const yielding = compiling ? 10 : 0;

/** Compiles better-sqlite3's SQLite (its own install script, which .npmrc keeps `npm install` from running). */
async function compileSqlite() {
  if (!compiling) return;
  console.log('build: SQLite for better-sqlite3 is compiled once after each install (one to two minutes)');
  await run('npm', COMPILE_SQLITE, root, 0);
}

const sqliteCompiled = compileSqlite();
const webBuilt = step([vite, 'build'], web);
const results = await Promise.allSettled([
  sqliteCompiled,
  (async () => {
    await step([tsc, '-b']);
    await webBuilt;
    await sqliteCompiled;
    await step([path.join(root, 'scripts/bundle-server.mjs')]);
  })(),
  webBuilt,
  (async () => {
    await step([tsc, '-p', 'tsconfig.json'], web);
    await step([tsc, '-p', 'tsconfig.node.json'], web);
  })(),
  ...(process.argv.includes('--check') ? [step([tsc, '-p', 'e2e']), run('npm', ['run', 'lint', '--silent'])] : []),
]);
// A failed web build fails the server's chain too: say it once.
const failures = new Set(results.filter((result) => result.status === 'rejected').map(({ reason }) => reason.message));
for (const failure of failures) console.error(`build: ${failure}`);
process.exit(failures.size > 0 ? 1 : 0);
