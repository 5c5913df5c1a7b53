#!/usr/bin/env node
// Password sign-ins of a `portaal` started here against raw argon2 in the same run (issue 12): the sign-in rate at a
// normal concurrency and its ratio to raw `@node-rs/argon2` verifies with the product's parameters, then a flood far
// beyond capacity: successful sign-ins, 503s with Retry-After, no flow written for a refused attempt, and the
// p99 of whoami while the flood lasts. Beside the rates it prints CPU time per sign-in (from /proc, so Linux only): the
// server's, its main thread's, and the load generator's, against a raw verify's, which noise on the machine does not
// move the way it moves rates. With `--rounds N` the raw verifies, the product and the two reference servers take turns
// N times and the figures are the medians: the machine's speed drifts by the minute, and turns put each in the same
// minutes. Run after `npm run build`:
//   node bench/sign-ins.mjs [--seconds 10] [--concurrency 8] [--flood 150] [--rounds 1]   (--flood 0: no flood)
//     [--postgres | --database postgres://…]   (the product and the lean sign-in on PostgreSQL)
//     [--profile DIR]   (writes a V8 CPU profile of the `portaal` process to DIR, for Chrome DevTools)
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startThrowawayPostgres } from '../scripts/lib/throwaway-postgres.mjs';
import { benchPortaal } from './support/bench-portaal.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    flood: { type: 'string', default: '150' },
    rounds: { type: 'string', default: '1' },
    postgres: { type: 'boolean', default: false },
    database: { type: 'string' },
    profile: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const flood = Number(values.flood);
const rounds = Number(values.rounds);
const root = fileURLToPath(new URL('..', import.meta.url));
// The identity provider's own argon2 and SQLite driver, so the reference runs exactly what the product runs.
const fromIdp = createRequire(path.join(root, 'packages/idp/package.json'));
const argon2 = fromIdp('@node-rs/argon2');
const Database = fromIdp('better-sqlite3');
const pg = fromIdp('pg');
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
 * CPU time in ms of a throwaway PostgreSQL server (bench/README.md#sign-ins): its postmaster with the children it has
 * reaped and those still running (the connections' backends, the writers). On the same cores, it is part of a
 * sign-in's cost on PostgreSQL that the portal's own process does not show.
 */
function postgresCpu(postmaster) {
  const fieldsOf = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const own = fieldsOf(postmaster);
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const fields = fieldsOf(entry);
      if (Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended while the list was read: the postmaster counts it once reaped.
    }
  }
  return ticks * 10;
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

/** Counts the login flows in the product's database, SQLite's file or PostgreSQL. */
async function loginFlowCounter(dataDir, database) {
  const count = "select count(*) as n from selfservice_flows where kind = 'login'";
  if (database) {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    return { count: async () => Number((await client.query(count)).rows[0].n), close: () => client.end() };
  }
  const file = new Database(path.join(dataDir, 'portaal.sqlite'), { readonly: true });
  return { count: async () => file.prepare(count).get().n, close: async () => file.close() };
}

/** Sign-ins by `flood` at once for `ms`, with whoami loaded beside them: what came back and what was written. */
async function floodWithWhoami(publicUrl, flows, ms) {
  const token = await (async () => {
    const flow = await (await fetch(`${publicUrl}/self-service/login/api`, { headers: json })).json();
    const done = await fetch(flow.ui.action, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ method: 'password', identifier: people[0], password: PASSWORD }),
    });
    return (await done.json()).session_token;
  })();
  const rowsBefore = await flows.count();
  const [flooded, whoami] = await Promise.all([
    loops(flood, ms, (worker) => signIn(publicUrl, people[worker % people.length])),
    autocannon({
      url: `${publicUrl}/sessions/whoami`,
      headers: { 'x-session-token': token, accept: 'application/json' },
      connections: 10,
      duration: seconds,
    }),
  ]);
  return { flooded, whoami, rowsWritten: (await flows.count()) - rowsBefore };
}

/** Raw verifies of one hash for `ms`, as many at once as the sign-ins: the rate and the CPU of one verify. */
async function rawVerifies(hash, ms) {
  const cpuBefore = process.cpuUsage();
  const verified = (await loops(concurrency, ms, async () => String(await argon2.verify(hash, PASSWORD)))).true ?? 0;
  const cpu = process.cpuUsage(cpuBefore);
  return { rate: verified / seconds, cpuMs: (cpu.user + cpu.system) / 1000 / verified };
}

/**
 * Sign-ins against one server for `ms`: the rate, the server's CPU per sign-in (argon2's threads included, and a
 * throwaway PostgreSQL's) and its main thread's, the database's alone, the load generator's, and any answer other than
 * a sign-in.
 */
async function signInsOf(url, pid, ms) {
  const before = cpuOf(pid);
  const databaseBefore = databaseCpu();
  const clientBefore = process.cpuUsage();
  const outcomes = await loops(concurrency, ms, (worker) => signIn(url, people[worker % people.length]));
  const after = cpuOf(pid);
  const databaseAfter = databaseCpu();
  const client = process.cpuUsage(clientBefore);
  const { ok = 0, ...others } = outcomes;
  const databaseMs = (databaseAfter - databaseBefore) / ok;
  return {
    rate: ok / seconds,
    cpuMs: (after.process - before.process) / ok + databaseMs,
    mainMs: (after.main - before.main) / ok,
    databaseMs,
    clientMs: (client.user + client.system) / 1000 / ok,
    others,
  };
}

/** Starts a reference server and waits for its 'ready'. */
async function startReference(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return child;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const loadBefore = os.loadavg();
const postgres = values.postgres ? await startThrowawayPostgres() : undefined;
const database = values.database ?? postgres?.url;
// A PostgreSQL named by --database may run elsewhere: its CPU is not counted.
const databaseCpu = postgres ? () => postgresCpu(postgres.postmasterPid()) : () => 0;
const bench = await benchPortaal({ database, profile: values.profile, spare: 2 });
const children = [];
try {
  for (const email of people) bench.createUser({ email, password: PASSWORD, lastName: 'Sign-in' });
  const server = await bench.serve();
  const { publicUrl, dataDir } = bench;
  const ms = seconds * 1000;
  const hash = await argon2.hash(PASSWORD, PARAMS);

  // The bare HTTP sign-in, with answers the size of the real ones.
  const created = await request(`${publicUrl}/self-service/login/api`, 'GET');
  const signedInOnce = await request(
    JSON.parse(created.text).ui.action,
    'POST',
    JSON.stringify({ method: 'password', identifier: people[0], password: PASSWORD }),
  );
  const argon2Path = fromIdp.resolve('@node-rs/argon2');
  const [barePort, leanPort] = bench.spares;
  const sizes = [created.text.length, signedInOnce.text.length].map(String);
  const bare = await startReference(['-e', BARE_SIGN_IN, String(barePort), argon2Path, hash, ...sizes]);
  children.push(bare);
  const servers = [
    { name: 'product', url: publicUrl, pid: server.pid },
    { name: 'bare', url: `http://127.0.0.1:${barePort}`, pid: bare.pid },
  ];

  // The lean sign-in (support/lean-sign-in.mjs): the product's statements without its framework, on a copy of its
  // SQLite database or on its PostgreSQL database, which hold the sign-in above.
  let leanDatabase = database;
  if (!database) {
    leanDatabase = path.join(dataDir, 'lean-sign-in.sqlite');
    const product = new Database(path.join(dataDir, 'portaal.sqlite'), { readonly: true });
    await product.backup(leanDatabase);
    product.close();
  }
  const leanScript = fileURLToPath(new URL('./support/lean-sign-in.mjs', import.meta.url));
  const driverPath = fromIdp.resolve(database ? 'pg' : 'better-sqlite3');
  const lean = await startReference([leanScript, String(leanPort), leanDatabase, argon2Path, driverPath]);
  children.push(lean);
  servers.push({ name: 'lean', url: `http://127.0.0.1:${leanPort}`, pid: lean.pid });

  // Warm-up: the JIT, the database's pages and argon2's memory settle before anything counts.
  await loops(concurrency, 1000, async () => String(await argon2.verify(hash, PASSWORD)));
  for (const { url } of servers)
    await loops(concurrency, 1000, (worker) => signIn(url, people[worker % people.length]));
  const results = [];
  for (let round = 0; round < rounds; round += 1) {
    const result = { raw: await rawVerifies(hash, ms) };
    for (const { name, url, pid } of servers) result[name] = await signInsOf(url, pid, ms);
    results.push(result);
  }
  const flows = await loginFlowCounter(dataDir, database);
  const flooding = flood > 0 ? await floodWithWhoami(publicUrl, flows, ms) : undefined;
  await flows.close();

  const of = (name, key) => median(results.map((result) => result[name][key]));
  const ratio = (name) => median(results.map((result) => result[name].rate / result.raw.rate));
  const cpuRatio = (name) => median(results.map((result) => result.raw.cpuMs / result[name].cpuMs));
  const serverFigures = (name) =>
    `${of(name, 'rate').toFixed(1)} (${ratio(name).toFixed(2)}× raw; per sign-in ${of(name, 'cpuMs').toFixed(2)} ms ` +
    `CPU, main thread ${of(name, 'mainMs').toFixed(2)} ms)`;
  const load = (averages) => averages.map((l) => l.toFixed(1)).join(' ');
  console.log(`${os.cpus().length} cores, load average before ${load(loadBefore)}, after ${load(os.loadavg())}`);
  const medians = rounds > 1 ? ' (medians)' : '';
  console.log(
    `${database ? 'PostgreSQL' : 'SQLite'}; ${rounds} round(s) of ${seconds} s each${medians}; ` +
      'sign-ins through the API flow, argon2id m=19456 t=2 p=1\n',
  );
  console.log('| Figure | Value | Goal |');
  console.log('|---|---|---|');
  console.log(`| raw argon2 verifies/s, concurrency ${concurrency} | ${of('raw', 'rate').toFixed(1)} | – |`);
  console.log(`| sign-ins/s, concurrency ${concurrency} | ${of('product', 'rate').toFixed(1)} | – |`);
  console.log(`| sign-ins / raw argon2 | ${ratio('product').toFixed(2)} | ≥ 0.9 |`);
  console.log(`| bare HTTP sign-ins/s (argon2 behind node:http, no database) | ${serverFigures('bare')} | – |`);
  console.log(
    `| lean sign-ins/s (the product's statements, prepared, behind node:http) | ${serverFigures('lean')} | – |`,
  );
  if (flooding) {
    const { flooded, whoami, rowsWritten } = flooding;
    const floodRate = (flooded.ok ?? 0) / seconds;
    // Every attempt not refused at its first request made a flow; the refused ones must have made none.
    const flowsMade = Object.entries(flooded)
      .filter(([outcome]) => !outcome.startsWith('503') || outcome === '503 after the flow')
      .filter(([outcome]) => !outcome.startsWith('create'))
      .reduce((sum, [, count]) => sum + count, 0);
    console.log(`| sign-ins/s with ${flood} at once | ${floodRate.toFixed(1)} | – |`);
    console.log(`| flood / normal capacity | ${(floodRate / of('product', 'rate')).toFixed(2)} | ≥ 0.9 |`);
    console.log(`| flood answers | ${JSON.stringify(flooded)} | 503s with Retry-After |`);
    console.log(`| login flows written in the flood / admitted attempts | ${rowsWritten} / ${flowsMade} | equal |`);
    console.log(`| whoami p99 during the flood | ${whoami.latency.p99} ms (${whoami.non2xx} non-2xx) | < 50 ms |`);
  }
  console.log(`| CPU per raw argon2 verify | ${of('raw', 'cpuMs').toFixed(2)} ms | – |`);
  const included = postgres ? "argon2's threads and PostgreSQL included" : "argon2's threads included";
  console.log(`| server CPU per sign-in, ${included} | ${of('product', 'cpuMs').toFixed(2)} ms | – |`);
  console.log(`| of which the main thread (HTTP, flows, SQL) | ${of('product', 'mainMs').toFixed(2)} ms | – |`);
  if (postgres) console.log(`| of which PostgreSQL | ${of('product', 'databaseMs').toFixed(2)} ms | – |`);
  console.log(`| raw verify CPU / server CPU per sign-in | ${cpuRatio('product').toFixed(2)} | ≥ 0.9 |`);
  console.log(`| the load generator's CPU per sign-in (same cores) | ${of('product', 'clientMs').toFixed(2)} ms | – |`);
  if (rounds > 1) {
    const names = servers.map(({ name }) => name);
    console.log(`\n| Round | raw/s | ${names.map((name) => `${name} (× raw, CPU ratio, main ms)`).join(' | ')} |`);
    console.log(`|---|---|${names.map(() => '---').join('|')}|`);
    results.forEach((result, index) => {
      const cells = names.map((name) => {
        const { rate: signIns, cpuMs, mainMs } = result[name];
        const times = (signIns / result.raw.rate).toFixed(2);
        return `${times}, ${(result.raw.cpuMs / cpuMs).toFixed(2)}, ${mainMs.toFixed(2)}`;
      });
      console.log(`| ${index + 1} | ${result.raw.rate.toFixed(1)} | ${cells.join(' | ')} |`);
    });
  }
  const unusual = results.filter((result) => Object.keys(result.product.others).length > 0);
  if (unusual.length > 0)
    console.log(
      `\nnot signed in at concurrency ${concurrency}:`,
      unusual.map((r) => r.product.others),
    );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await bench.stop();
  await postgres?.stop();
}
