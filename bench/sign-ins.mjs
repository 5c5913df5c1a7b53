#!/usr/bin/env node
// Password sign-ins of a `portaal` started here against raw argon2 in the same run (issue 12): the sign-in rate at a
// normal concurrency and its ratio to raw `@node-rs/argon2` verifies with the product's parameters, then a flood far
// beyond capacity: successful sign-ins, quick 503s with Retry-After, no flow written for a refused attempt, and the
// p99 of whoami while the flood lasts. Run after `npm run build`:
//   node bench/sign-ins.mjs [--seconds 10] [--concurrency 8] [--flood 150]
//     [--profile DIR]   (writes a V8 CPU profile of the `portaal` process to DIR, for Chrome DevTools)
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchPortaal } from './support/bench-portaal.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    flood: { type: 'string', default: '150' },
    profile: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const flood = Number(values.flood);
const root = fileURLToPath(new URL('..', import.meta.url));
// The identity provider's own argon2 and SQLite driver, so the reference runs exactly what the product runs.
const fromIdp = createRequire(path.join(root, 'packages/idp/package.json'));
const argon2 = fromIdp('@node-rs/argon2');
const Database = fromIdp('better-sqlite3');
// OWASP Password Storage Cheat Sheet, as packages/idp/src/credentials/password/password-hasher.ts uses them.
const PARAMS = { algorithm: argon2.Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const PASSWORD = 'Bench-Molen-Gracht-2026';
const people = Array.from({ length: 8 }, (_, i) => `bench-sign-in-${i}@voorbeeldstad.nl`);

/** Runs `workers` loops of `work` for `ms`, and counts what each round answered. */
async function loops(workers, ms, work) {
  const until = Date.now() + ms;
  const counts = {};
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let round = 0; Date.now() < until; round += 1) {
        const outcome = await work(worker, round);
        counts[outcome] = (counts[outcome] ?? 0) + 1;
      }
    }),
  );
  return counts;
}

const json = { accept: 'application/json', 'content-type': 'application/json' };

/** One sign-in through the API flow: 'ok', '503' (with or without Retry-After) or the status that came instead. */
async function signIn(publicUrl, email) {
  const created = await fetch(`${publicUrl}/self-service/login/api`, { headers: json });
  if (created.status === 503) return created.headers.get('retry-after') ? '503' : '503 without Retry-After';
  if (!created.ok) return `create ${created.status}`;
  const flow = await created.json();
  const done = await fetch(flow.ui.action, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ method: 'password', identifier: email, password: PASSWORD }),
  });
  if (done.status === 503) return done.headers.get('retry-after') ? '503 after the flow' : '503 without Retry-After';
  if (!done.ok) return `submit ${done.status}`;
  await done.arrayBuffer();
  return 'ok';
}

const bench = await benchPortaal({ profile: values.profile });
try {
  for (const email of people) bench.createUser({ email, password: PASSWORD, lastName: 'Sign-in' });
  await bench.serve();
  const { publicUrl, dataDir } = bench;
  const ms = seconds * 1000;

  // The reference: raw verifies of one hash, as many at once as the sign-ins below.
  const hash = await argon2.hash(PASSWORD, PARAMS);
  await loops(concurrency, 1000, async () => String(await argon2.verify(hash, PASSWORD)));
  const raw = (await loops(concurrency, ms, async () => String(await argon2.verify(hash, PASSWORD)))).true ?? 0;

  await loops(concurrency, 1000, (worker) => signIn(publicUrl, people[worker % people.length]));
  const normal = await loops(concurrency, ms, (worker) => signIn(publicUrl, people[worker % people.length]));

  // The flood, with whoami loaded beside it by a signed-in session (10 connections).
  const token = await (async () => {
    const flow = await (await fetch(`${publicUrl}/self-service/login/api`, { headers: json })).json();
    const done = await fetch(flow.ui.action, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ method: 'password', identifier: people[0], password: PASSWORD }),
    });
    return (await done.json()).session_token;
  })();
  const database = new Database(path.join(dataDir, 'portaal.sqlite'), { readonly: true });
  const flowRows = () => database.prepare("select count(*) as n from selfservice_flows where kind = 'login'").get().n;
  const rowsBefore = flowRows();
  const [flooded, whoami] = await Promise.all([
    loops(flood, ms, (worker) => signIn(publicUrl, people[worker % people.length])),
    autocannon({
      url: `${publicUrl}/sessions/whoami`,
      headers: { 'x-session-token': token, accept: 'application/json' },
      connections: 10,
      duration: seconds,
    }),
  ]);
  const rowsWritten = flowRows() - rowsBefore;
  database.close();

  const rate = (count) => count / seconds;
  const normalRate = rate(normal.ok ?? 0);
  const floodRate = rate(flooded.ok ?? 0);
  // Every attempt not refused at its first request made a flow; the refused ones must have made none.
  const flowsMade = Object.entries(flooded)
    .filter(([outcome]) => !outcome.startsWith('503') || outcome === '503 after the flow')
    .filter(([outcome]) => !outcome.startsWith('create'))
    .reduce((sum, [, count]) => sum + count, 0);
  console.log(
    `${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`${seconds} s per run; sign-ins through the API flow, argon2id m=19456 t=2 p=1\n`);
  console.log('| Figure | Value | Goal |');
  console.log('|---|---|---|');
  console.log(`| raw argon2 verifies/s, concurrency ${concurrency} | ${rate(raw).toFixed(1)} | – |`);
  console.log(`| sign-ins/s, concurrency ${concurrency} | ${normalRate.toFixed(1)} | – |`);
  console.log(`| sign-ins / raw argon2 | ${(normalRate / rate(raw)).toFixed(2)} | ≥ 0.9 |`);
  console.log(`| sign-ins/s with ${flood} at once | ${floodRate.toFixed(1)} | – |`);
  console.log(`| flood / normal capacity | ${(floodRate / normalRate).toFixed(2)} | ≥ 0.9 |`);
  console.log(`| flood answers | ${JSON.stringify(flooded)} | 503s with Retry-After |`);
  console.log(`| login flows written in the flood / admitted attempts | ${rowsWritten} / ${flowsMade} | equal |`);
  console.log(`| whoami p99 during the flood | ${whoami.latency.p99} ms (${whoami.non2xx} non-2xx) | < 50 ms |`);
  if (Object.keys(normal).some((key) => key !== 'ok')) console.log(`\nat concurrency ${concurrency}:`, normal);
} finally {
  await bench.stop();
}
