#!/usr/bin/env node
// Start-up time and idle memory of `portaal serve --demo` as `npm start` runs it (after the build): the time from
// starting the process until it answers /health/ready and the sign-in page, on a new data folder (migrations and demo
// data included) and again on the same folder, then the resident memory after it has been idle for a while.
// Run after `npm run build`:
//   node bench/startup.mjs [--rounds 3] [--idle-seconds 10]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { freePort } from './support/free-port.mjs';
import { V8_MEMORY } from './support/bench-portaal.mjs';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, 'idle-seconds': { type: 'string', default: '10' } },
});
const rounds = Number(values.rounds);
const idleMs = Number(values['idle-seconds']) * 1000;
const portaal = fileURLToPath(new URL('../apps/server/bin/portaal.js', import.meta.url));

async function answers(url) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

const residentMiB = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : Number.NaN;
};

/** Starts `portaal serve --demo` on `dataDir`; resolves with the milliseconds until it was ready and the process. */
async function start(dataDir) {
  const [port, adminPort] = [await freePort(), await freePort()];
  const env = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), ADMIN_PORT: String(adminPort) };
  const began = performance.now();
  // With the V8 memory settings `npm start` passes (docs/operations.md "Memory").
  const child = spawn(process.execPath, [...V8_MEMORY.split(' '), portaal, 'serve', '--demo'], {
    env,
    stdio: 'ignore',
  });
  let ready = false;
  while (!ready) {
    if (child.exitCode !== null) throw new Error(`portaal exited with ${child.exitCode}`);
    ready =
      (await answers(`http://127.0.0.1:${adminPort}/health/ready`)) &&
      (await answers(`http://127.0.0.1:${port}/login`));
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { ms: performance.now() - began, child };
}

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const results = { fresh: [], again: [], idle: [] };
for (let round = 0; round < rounds; round++) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-startup-'));
  try {
    const fresh = await start(dataDir);
    results.fresh.push(fresh.ms);
    await stop(fresh.child);
    const again = await start(dataDir);
    results.again.push(again.ms);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    results.idle.push(residentMiB(again.child.pid));
    await stop(again.child);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Every round's figure, rounded, for the parenthesis after the median. */
const all = (figures) => figures.map((figure) => figure.toFixed(0)).join(', ');
console.log(`portaal serve --demo, ${rounds} round(s), median (all)`);
console.log(`  ready on a new data folder:      ${median(results.fresh).toFixed(0)} ms  (${all(results.fresh)})`);
console.log(`  ready on the same folder again:  ${median(results.again).toFixed(0)} ms  (${all(results.again)})`);
console.log(
  `  resident memory after ${idleMs / 1000} s idle: ${median(results.idle).toFixed(0)} MiB  (${all(results.idle)})`,
);
console.log('  goals: ready under 1500 ms, idle memory under 150 MiB');
