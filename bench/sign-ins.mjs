#!/usr/bin/env node
// Password sign-ins of a `portaal` started here against raw argon2 in the same run (issue 12): the sign-in rate at a
// normal concurrency and its ratio to raw `@node-rs/argon2` verifies with the product's parameters, then a flood far
// beyond capacity: successful sign-ins, 503s with Retry-After, no flow written for a refused attempt, and the
// p99 of whoami while the flood lasts. Beside the rates it prints CPU time per sign-in (from /proc, so Linux only): the
// server's, its main thread's, and the load generator's, against a raw verify's, which noise on the machine does not
// move the way it moves rates. Run after `npm run build`:
//   node bench/sign-ins.mjs [--seconds 10] [--concurrency 8] [--flood 150]   (--flood 0: no flood, for a profile)
//     [--profile DIR]   (writes a V8 CPU profile of the `portaal` process to DIR, for Chrome DevTools)
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { spawn } from 'node:child_process';
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

/**
 * CPU time in ms of a process and of its main thread (the event loop; argon2 runs on libuv's threads), from Linux's
 * /proc: user and system clock ticks, at 100 per second.
 */
function cpuOf(pid) {
  const ticks = (file) => {
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  return { process: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`) };
}

/**
 * The second reference: the least an HTTP sign-in can do. A node:http server whose GET answers a fixed flow of the
 * real one's size and whose POST parses the JSON body, verifies the password with argon2 (the product's parameters)
 * and answers a fixed session of the real one's size: no database, no flow rules, no cookies. Loaded by the same
 * load generator, it shows what two HTTP round trips per sign-in leave of raw argon2 on these cores.
 */
const BARE_SIGN_IN = `
const http = require('node:http');
const [port, argon2Path, hash, flowBytes, sessionBytes] = process.argv.slice(1);
const argon2 = require(argon2Path);
const flow = JSON.stringify({ ui: { action: 'http://127.0.0.1:' + port + '/submit' }, pad: '' });
const flowBody = flow.replace('"pad":""', '"pad":"' + 'x'.repeat(Math.max(0, Number(flowBytes) - flow.length)) + '"');
const sessionBody = JSON.stringify({ pad: 'x'.repeat(Math.max(0, Number(sessionBytes) - 10)) });
const answer = (response, status, body) => {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
};
http.createServer((request, response) => {
  if (request.method === 'GET') return answer(response, 200, flowBody);
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    const { password } = JSON.parse(Buffer.concat(chunks).toString());
    answer(response, (await argon2.verify(hash, password)) ? 200 : 400, sessionBody);
  });
}).listen(Number(port), '127.0.0.1', () => console.log('ready'));
`;

const json = { accept: 'application/json', 'content-type': 'application/json' };

// The load generator shares the two cores with the server and argon2: it speaks node:http on kept-alive connections,
// which costs about a third of what fetch costs per sign-in (it prints its own CPU time per sign-in too).
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One HTTP request with a JSON body (or none): the status, the Retry-After header and the body as text. */
function request(url, method, body) {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? json : { ...json, 'content-length': Buffer.byteLength(body) };
    const asked = http.request(url, { method, agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          retryAfter: response.headers['retry-after'],
          text: Buffer.concat(chunks).toString(),
        }),
      );
    });
    asked.on('error', reject);
    asked.end(body);
  });
}

/** One sign-in through the API flow: 'ok', '503' (with or without Retry-After) or the status that came instead. */
async function signIn(publicUrl, email) {
  const created = await request(`${publicUrl}/self-service/login/api`, 'GET');
  if (created.status === 503) return created.retryAfter ? '503' : '503 without Retry-After';
  if (created.status !== 200) return `create ${created.status}`;
  const flow = JSON.parse(created.text);
  const done = await request(
    flow.ui.action,
    'POST',
    JSON.stringify({ method: 'password', identifier: email, password: PASSWORD }),
  );
  if (done.status === 503) return done.retryAfter ? '503 after the flow' : '503 without Retry-After';
  if (done.status !== 200) return `submit ${done.status}`;
  return 'ok';
}

/** Sign-ins by `flood` at once for `ms`, with whoami loaded beside them: what came back and what was written. */
async function floodWithWhoami(publicUrl, dataDir, ms) {
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
  return { flooded, whoami, rowsWritten };
}

const bench = await benchPortaal({ profile: values.profile, spare: 2 });
let bare;
let lean;
try {
  for (const email of people) bench.createUser({ email, password: PASSWORD, lastName: 'Sign-in' });
  const server = await bench.serve();
  const { publicUrl, dataDir } = bench;
  const ms = seconds * 1000;

  // The reference: raw verifies of one hash, as many at once as the sign-ins below.
  const hash = await argon2.hash(PASSWORD, PARAMS);
  await loops(concurrency, 1000, async () => String(await argon2.verify(hash, PASSWORD)));
  const rawCpuBefore = process.cpuUsage();
  const raw = (await loops(concurrency, ms, async () => String(await argon2.verify(hash, PASSWORD)))).true ?? 0;
  const rawCpu = process.cpuUsage(rawCpuBefore);
  const msPerVerify = (rawCpu.user + rawCpu.system) / 1000 / raw;

  // The bare HTTP sign-in, with answers the size of the real ones.
  const created = await request(`${publicUrl}/self-service/login/api`, 'GET');
  const signedInOnce = await request(
    JSON.parse(created.text).ui.action,
    'POST',
    JSON.stringify({ method: 'password', identifier: people[0], password: PASSWORD }),
  );
  const argon2Path = fromIdp.resolve('@node-rs/argon2');
  const [barePort] = bench.spares;
  const bareSizes = [created.text.length, signedInOnce.text.length].map(String);
  bare = spawn(process.execPath, ['-e', BARE_SIGN_IN, String(barePort), argon2Path, hash, ...bareSizes], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => bare.stdout.once('data', resolve));
  const bareUrl = `http://127.0.0.1:${barePort}`;
  await loops(concurrency, 1000, (worker) => signIn(bareUrl, people[worker % people.length]));
  const bareSignIns = (await loops(concurrency, ms, (worker) => signIn(bareUrl, people[worker])))?.ok ?? 0;
  bare.kill('SIGTERM');

  // The lean sign-in (support/lean-sign-in.mjs): the product's statements without its framework, on a copy of its
  // database that holds the sign-in above.
  const leanFile = path.join(dataDir, 'lean-sign-in.sqlite');
  const product = new Database(path.join(dataDir, 'portaal.sqlite'), { readonly: true });
  await product.backup(leanFile);
  product.close();
  const [, leanPort] = bench.spares;
  lean = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./support/lean-sign-in.mjs', import.meta.url)),
      String(leanPort),
      leanFile,
      argon2Path,
      fromIdp.resolve('better-sqlite3'),
      String(signedInOnce.text.length),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => lean.stdout.once('data', resolve));
  const leanUrl = `http://127.0.0.1:${leanPort}`;
  await loops(concurrency, 1000, (worker) => signIn(leanUrl, people[worker % people.length]));
  const leanCpuBefore = cpuOf(lean.pid);
  const leanRun = await loops(concurrency, ms, (worker) => signIn(leanUrl, people[worker % people.length]));
  const leanCpu = cpuOf(lean.pid);
  const leanSignIns = leanRun.ok ?? 0;
  lean.kill('SIGTERM');

  await loops(concurrency, 1000, (worker) => signIn(publicUrl, people[worker % people.length]));
  const cpuBefore = cpuOf(server.pid);
  const clientBefore = process.cpuUsage();
  const normal = await loops(concurrency, ms, (worker) => signIn(publicUrl, people[worker % people.length]));
  const cpuAfter = cpuOf(server.pid);
  const client = process.cpuUsage(clientBefore);
  const signedIn = normal.ok ?? 0;
  const perSignIn = (key) => (cpuAfter[key] - cpuBefore[key]) / signedIn;

  // The flood, with whoami loaded beside it by a signed-in session (10 connections); none with --flood 0.
  const flooding = flood > 0 ? await floodWithWhoami(publicUrl, dataDir, ms) : undefined;
  const rate = (count) => count / seconds;
  const normalRate = rate(normal.ok ?? 0);
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
  console.log(
    `| bare HTTP sign-ins/s (argon2 behind node:http, no database) | ${rate(bareSignIns).toFixed(1)} ` +
      `(${(bareSignIns / raw).toFixed(2)}× raw) | – |`,
  );
  const leanMs = (key) => ((leanCpu[key] - leanCpuBefore[key]) / leanSignIns).toFixed(2);
  console.log(
    `| lean sign-ins/s (the product's statements, prepared, behind node:http) | ${rate(leanSignIns).toFixed(1)} ` +
      `(${(leanSignIns / raw).toFixed(2)}× raw; per sign-in ${leanMs('process')} ms CPU, main thread ` +
      `${leanMs('main')} ms) | – |`,
  );
  if (flooding) {
    const { flooded, whoami, rowsWritten } = flooding;
    const floodRate = rate(flooded.ok ?? 0);
    // Every attempt not refused at its first request made a flow; the refused ones must have made none.
    const flowsMade = Object.entries(flooded)
      .filter(([outcome]) => !outcome.startsWith('503') || outcome === '503 after the flow')
      .filter(([outcome]) => !outcome.startsWith('create'))
      .reduce((sum, [, count]) => sum + count, 0);
    console.log(`| sign-ins/s with ${flood} at once | ${floodRate.toFixed(1)} | – |`);
    console.log(`| flood / normal capacity | ${(floodRate / normalRate).toFixed(2)} | ≥ 0.9 |`);
    console.log(`| flood answers | ${JSON.stringify(flooded)} | 503s with Retry-After |`);
    console.log(`| login flows written in the flood / admitted attempts | ${rowsWritten} / ${flowsMade} | equal |`);
    console.log(`| whoami p99 during the flood | ${whoami.latency.p99} ms (${whoami.non2xx} non-2xx) | < 50 ms |`);
  }
  const clientMs = (client.user + client.system) / 1000 / signedIn;
  console.log(`| CPU per raw argon2 verify | ${msPerVerify.toFixed(2)} ms | – |`);
  console.log(`| server CPU per sign-in, argon2's threads included | ${perSignIn('process').toFixed(2)} ms | – |`);
  console.log(`| of which the main thread (HTTP, flows, SQL) | ${perSignIn('main').toFixed(2)} ms | – |`);
  console.log(
    `| raw verify CPU / server CPU per sign-in | ${(msPerVerify / perSignIn('process')).toFixed(2)} | ≥ 0.9 |`,
  );
  console.log(`| the load generator's CPU per sign-in (same cores) | ${clientMs.toFixed(2)} ms | – |`);
  if (Object.keys(normal).some((key) => key !== 'ok')) console.log(`\nat concurrency ${concurrency}:`, normal);
} finally {
  bare?.kill('SIGTERM');
  lean?.kill('SIGTERM');
  await bench.stop();
}
