#!/usr/bin/env node
// A soak: two `portaal` processes on one throwaway PostgreSQL cluster, signed-in sessions checking whoami through
// both, an administrator writing meanwhile. Prints errors (the goal is 0), p99 latency and each process's memory
// after warm-up and at the end (growth goal at most 20 %). Run after `npm run build`:
//   node bench/soak.mjs [--minutes 10] [--sessions 500] [--concurrency 50]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startThrowawayPostgres } from '../scripts/lib/throwaway-postgres.mjs';
import { freePort } from './support/free-port.mjs';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    sessions: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '50' },
  },
});
const minutes = Number(values.minutes);
const sessionCount = Number(values.sessions);
const concurrency = Number(values.concurrency);
const bin = fileURLToPath(new URL('../apps/server/bin/portaal.js', import.meta.url));
const PASSWORD = 'Soak-Molen-Gracht-2026';

async function startProcess(databaseUrl) {
  const [port, adminPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-soak-'));
  const env = {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    // Both processes must accept each other's sessions: one public URL, one cookie secret.
    PUBLIC_URL: 'http://127.0.0.1:4455',
    SECRETS_COOKIE: 'soak-geheim-van-minstens-32-tekens-lang',
    LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
  };
  const child = spawn(process.execPath, [bin, 'serve'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const publicUrl = `http://127.0.0.1:${port}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`portaal exited:\n${log}`);
    if (
      await fetch(`${adminUrl}/health/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (tries > 300) throw new Error('portaal did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    publicUrl,
    adminUrl,
    log: () => log,
    async rssMiB() {
      const text = await (await fetch(`${adminUrl}/metrics`)).text();
      return Number(/^portaal_process_resident_memory_bytes (\d+)/m.exec(text)?.[1] ?? 0) / 1024 / 1024;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function createAccount(adminUrl, index) {
  const email = `soak-${index}-${randomUUID().slice(0, 8)}@voorbeeldstad.nl`;
  const response = await fetch(`${adminUrl}/admin/identities`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      schema_id: 'default',
      traits: { email, name: { first: 'Soak', last: String(index) } },
      credentials: { password: { config: { password: PASSWORD } } },
    }),
  });
  if (response.status !== 201) throw new Error(`creating an account answered ${response.status}`);
  return email;
}

async function signIn(publicUrl, email) {
  const flow = await (await fetch(`${publicUrl}/self-service/login/api`)).json();
  const done = await fetch(`${publicUrl}/self-service/login?flow=${flow.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ method: 'password', identifier: email, password: PASSWORD }),
  });
  if (done.status !== 200) throw new Error(`signing in answered ${done.status}`);
  return (await done.json()).session_token;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

const postgres = await startThrowawayPostgres();
const processes = [];
try {
  processes.push(await startProcess(postgres.url));
  processes.push(await startProcess(postgres.url));
  console.log(`Signing in ${sessionCount} accounts…`);
  const tokens = [];
  for (let start = 0; start < sessionCount; start += 8) {
    const batch = Array.from({ length: Math.min(8, sessionCount - start) }, (_, i) => start + i);
    tokens.push(
      ...(await Promise.all(
        batch.map(async (index) => {
          const target = processes[index % 2];
          return signIn(target.publicUrl, await createAccount(target.adminUrl, index));
        }),
      )),
    );
  }

  console.log(`Checking whoami on ${concurrency} connections for ${minutes} min, accounts created meanwhile…`);
  const latencies = [];
  const failures = new Map();
  let writes = 0;
  let next = 0;
  const fail = (what) => failures.set(what, (failures.get(what) ?? 0) + 1);
  const endAt = Date.now() + minutes * 60_000;
  const warmUpAt = Date.now() + Math.min(30_000, (minutes * 60_000) / 10);
  // RSS sampled every 5 s after the warm-up: the growth compares the median of the first three samples with that of
  // the last three, so one transient peak of the garbage collector does not read as a leak.
  const samples = [[], []];
  const reader = async () => {
    while (Date.now() < endAt) {
      const index = next++;
      const target = processes[index % 2];
      const started = performance.now();
      try {
        const answer = await fetch(`${target.publicUrl}/sessions/whoami`, {
          headers: { 'x-session-token': tokens[index % tokens.length] },
        });
        await answer.arrayBuffer();
        if (answer.status !== 200) fail(`whoami ${answer.status}`);
      } catch (error) {
        fail(`whoami ${error.cause?.code ?? error.message}`);
      }
      latencies.push(performance.now() - started);
    }
  };
  const writer = async () => {
    while (Date.now() < endAt) {
      try {
        await createAccount(processes[writes % 2].adminUrl, `w${writes}`);
        writes++;
      } catch (error) {
        fail(`write ${error.message}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const sample = async () => {
    const now = await Promise.all(processes.map((p) => p.rssMiB()));
    for (const [i, rss] of now.entries()) samples[i].push(rss);
  };
  const sampler = (async () => {
    await new Promise((r) => setTimeout(r, warmUpAt - Date.now()));
    while (Date.now() < endAt) {
      await sample();
      await new Promise((r) => setTimeout(r, 5_000));
    }
  })();
  await Promise.all([...Array.from({ length: concurrency }, reader), writer(), writer(), sampler]);
  await sample();
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const memoryAfterWarmUp = samples.map((list) => median(list.slice(0, 3)));
  const memoryAtEnd = samples.map((list) => median(list.slice(-3)));

  latencies.sort((a, b) => a - b);
  const errors = [...failures.values()].reduce((a, b) => a + b, 0);
  console.log(`\nSoak of ${minutes} min, ${tokens.length} sessions, ${concurrency} connections, two processes:`);
  console.log(`requests   ${latencies.length} whoami + ${writes} admin writes`);
  console.log(`errors     ${errors}${errors ? ` (${[...failures].map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}`);
  console.log(
    `whoami     p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
  processes.forEach((_, i) => {
    const growth = ((memoryAtEnd[i] - memoryAfterWarmUp[i]) / memoryAfterWarmUp[i]) * 100;
    console.log(
      `process ${i + 1}  RSS ${memoryAfterWarmUp[i].toFixed(0)} MiB after warm-up, ${memoryAtEnd[i].toFixed(0)} MiB ` +
        `at the end (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %, medians of three samples; ` +
        `peak ${Math.max(...samples[i]).toFixed(0)} MiB)`,
    );
  });
} finally {
  await Promise.all(processes.map((p) => p.stop()));
  await postgres.stop();
}
