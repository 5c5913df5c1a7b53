#!/usr/bin/env node
// Loads GET /sessions/whoami and GET /api/forward-auth (the check nginx makes for every request to a data service) of
// a `portaal` started here, and in the same run a bare node:http server answering a fixed ~600-byte JSON as the
// reference, each with 50 connections; prints req/s, p99 and the ratios to bare.
// Run after `npm run build`:
//   node bench/whoami.mjs [--seconds 10] [--connections 50] [--rounds 1] [--postgres | --database postgres://…]
//     [--profile DIR]   (writes a V8 CPU profile of the `portaal` process to DIR, for Chrome DevTools)
//     [--writes N]   (N commits a second on the portal's database from another process, through all rounds: audit
//                     entries, as sign-ins write them; with --counted, changes to another person's record instead)
//     [--sessions N]   (the load spread over N sessions of the same person, each asked in turn; 1 by default)
// Rounds alternate bare and whoami, so that a machine whose load changes meanwhile skews both alike.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import fetchCookie from 'fetch-cookie';
import { CookieJar } from 'tough-cookie';
import { startThrowawayPostgres } from '../scripts/lib/throwaway-postgres.mjs';
import { benchPortaal } from './support/bench-portaal.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    database: { type: 'string' },
    postgres: { type: 'boolean', default: false },
    profile: { type: 'string' },
    writes: { type: 'string', default: '0' },
    counted: { type: 'boolean', default: false },
    sessions: { type: 'string', default: '1' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const writesPerSecond = Number(values.writes);
const sessionCount = Number(values.sessions);
// The identity provider's own drivers, as the portal uses them.
const fromIdp = createRequire(fileURLToPath(new URL('../packages/idp/package.json', import.meta.url)));
const DEMO_CATALOGUE = new URL('../packages/users-api/catalogue/demo-catalogue.json', import.meta.url);
const USER = { email: 'bench-whoami@voorbeeldstad.nl', password: 'Bench-Molen-Gracht-2026' };
// The person whose record the counted writes change, as an administrator's edits do.
const OTHER = { email: 'bench-other@voorbeeldstad.nl', password: 'Bench-Dijk-Polder-2026' };

// The reference: what node:http alone can answer on this machine, with a body the size of a whoami answer, and (at
// /forward-auth) a passed forward-auth check's headers, asked with the same forwarded headers as the portal.
const BARE_SERVER = `
const body = JSON.stringify({
  id: '6f1c2a9e-8d3b-4f7a-9c1e-2b5d8e4f6a70', active: true, expires_at: '2026-01-01T00:00:00.000Z',
  authenticated_at: '2025-12-31T00:00:00.000Z', authenticator_assurance_level: 'aal1',
  authentication_methods: [{ method: 'password', aal: 'aal1', completed_at: '2025-12-31T00:00:00.000Z' }],
  identity: { id: '0c7e5b1a-3f2d-4e6c-8a9b-1d2e3f4a5b6c', schema_id: 'default', state: 'active',
    traits: { email: 'bench-whoami@voorbeeldstad.nl', name: { first: 'Bench', last: 'Whoami' } },
    created_at: '2025-12-01T00:00:00.000Z' },
  devices: [{ id: '6f1c2a9e-8d3b-4f7a-9c1e-2b5d8e4f6a70', ip_address: '127.0.0.1', user_agent: 'bench' }],
});
// A passed forward-auth check as the portal answers it: no body, the identity headers, no-store.
const passed = {
  'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-portaal-data-roles': '',
  'x-portaal-email': 'bench-whoami@voorbeeldstad.nl', 'x-portaal-name': 'Bench Whoami',
  'x-portaal-organisation': 'dego', 'x-portaal-user-id': '0c7e5b1a-3f2d-4e6c-8a9b-1d2e3f4a5b6c',
  'content-length': '0',
};
require('node:http')
  .createServer((request, response) => {
    if (request.url.startsWith('/forward-auth')) {
      response.writeHead(200, passed);
      return response.end();
    }
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    response.end(body);
  })
  .listen(Number(process.argv[1]), '127.0.0.1', () => console.log(body.length));
`;

async function signIn(publicUrl) {
  const jar = new CookieJar();
  const f = fetchCookie(fetch, jar);
  const json = { accept: 'application/json', 'content-type': 'application/json' };
  const login = await (await f(`${publicUrl}/self-service/login/browser`, { headers: json })).json();
  const csrf = login.ui.nodes.find((n) => n.attributes.name === 'csrf_token').attributes.value;
  const body = { method: 'password', identifier: USER.email, password: USER.password, csrf_token: csrf };
  const done = await f(login.ui.action, { method: 'POST', headers: json, body: JSON.stringify(body) });
  if (!done.ok) throw new Error(`sign-in failed: ${done.status} ${await done.text()}`);
  return jar.getCookieStringSync(publicUrl);
}

/** CPU time in µs (user and system) that a process has used, from Linux's /proc at 100 ticks a second. */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * Loads `url` for `duration` s; req/s, p99 and the CPU the serving process spent per answer. With `cookies`, each
 * request presents the next of them in turn.
 */
async function load(url, headers, duration, pid, cookies) {
  const before = pid ? cpuMicros(pid) : 0;
  let next = 0;
  const rotate = (request) => {
    next = (next + 1) % cookies.length;
    return { ...request, headers: { ...request.headers, cookie: cookies[next] } };
  };
  const requests = cookies && cookies.length > 1 ? [{ setupRequest: rotate }] : undefined;
  const result = await autocannon({ url, headers, connections, duration, requests });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const cpu = pid ? (cpuMicros(pid) - before) / result.requests.total : Number.NaN;
  return { rps: result.requests.average, p99: result.latency.p99, cpu };
}

/**
 * Commits `perSecond` writes a second on the portal's database from outside the portal (bench/README.md#whoami), in
 * a process of its own, so that the writes cost the portal nothing but the misses. Audit entries, as a busy portal's
 * sign-ins of other people write them, leave the check mark alone; `counted`: a change to another person's record
 * instead, which raises it, so that every session's next check misses.
 */
async function backgroundWriter(dataDir, database, perSecond, counted) {
  const [statement, parameters] = counted
    ? [`update identities set updated_at = $1 where traits like '%${OTHER.email}%'`, () => [new Date().toISOString()]]
    : [
        "insert into audit_log (id, at, action, result, details) values ($1, $2, 'bench.write', 'success', null)",
        () => [crypto.randomUUID(), new Date().toISOString()],
      ];
  let write;
  let close;
  if (database) {
    const client = new (fromIdp('pg').Client)({ connectionString: database });
    await client.connect();
    write = () => client.query(statement, parameters());
    close = () => client.end();
  } else {
    const sqlite = new (fromIdp('better-sqlite3'))(path.join(dataDir, 'portaal.sqlite'));
    sqlite.pragma('busy_timeout = 1000');
    const prepared = sqlite.prepare(statement.replace(/\$\d/g, '?'));
    write = async () => prepared.run(...parameters());
    close = async () => sqlite.close();
  }
  let written = 0;
  let busy = false;
  const started = Date.now();
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    await write();
    written += 1;
    busy = false;
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await close();
      return written / ((Date.now() - started) / 1000);
    },
  };
}

const loadBefore = os.loadavg();
const postgres = values.postgres ? await startThrowawayPostgres() : undefined;
const database = values.database ?? postgres?.url;
const bench = await benchPortaal({ database, profile: values.profile, spare: 1 });
const [barePort] = bench.spares;
const children = [];
try {
  // A member of the demo catalogue's 'dego', which asks no second factor and may use 'Wijkmonitor'.
  bench.run(['catalogue', 'load', fileURLToPath(DEMO_CATALOGUE)]);
  bench.createUser({ ...USER, lastName: 'Whoami', org: 'dego' });
  if (values.counted) bench.createUser({ ...OTHER, lastName: 'Ander', org: 'dego' });
  const server = await bench.serve();
  const bare = spawn(process.execPath, ['-e', BARE_SERVER, String(barePort)], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(bare);
  const bareBytes = await new Promise((resolve) => bare.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
  const { publicUrl } = bench;
  const cookie = await signIn(publicUrl);
  const cookies = [cookie];
  while (cookies.length < sessionCount) {
    const batch = Math.min(8, sessionCount - cookies.length);
    cookies.push(...(await Promise.all(Array.from({ length: batch }, () => signIn(publicUrl)))));
  }
  const whoamiUrl = `${publicUrl}/sessions/whoami`;
  const answer = await fetch(whoamiUrl, { headers: { cookie, accept: 'application/json' } });
  const whoamiBytes = (await answer.text()).length;
  if (!answer.ok) throw new Error(`whoami answered ${answer.status}`);
  // As nginx asks (deploy/nginx/forward-auth.conf): where the browser was going, in forwarded headers.
  const forwardAuthUrl = `${publicUrl}/api/forward-auth`;
  const forwarded = {
    cookie,
    'x-forwarded-host': 'wijkmonitor.voorbeeld.nl',
    'x-forwarded-proto': 'https',
    'x-forwarded-uri': '/kaart/buurten?jaar=2026',
    'x-forwarded-method': 'GET',
  };
  const passed = await fetch(forwardAuthUrl, { headers: forwarded });
  if (passed.status !== 200) throw new Error(`forward-auth answered ${passed.status}`);
  const bareUrl = `http://127.0.0.1:${barePort}/`;
  // Warm-up: lets the JIT and the database settle before anything is counted.
  await load(bareUrl, {}, 2);
  await load(`${bareUrl}forward-auth`, forwarded, 2);
  await load(whoamiUrl, { cookie }, 2, undefined, cookies);
  await load(forwardAuthUrl, forwarded, 2, undefined, cookies);
  const writer =
    writesPerSecond > 0 ? await backgroundWriter(bench.dataDir, database, writesPerSecond, values.counted) : undefined;
  const results = [];
  for (let round = 0; round < rounds; round += 1) {
    // The references are asked with the same sessions in turn: building each request anew costs the load generator,
    // on the same cores, more than sending a prepared one.
    const bareRun = await load(bareUrl, {}, seconds, bare.pid, cookies);
    const bareForwardAuthRun = await load(`${bareUrl}forward-auth`, forwarded, seconds, bare.pid, cookies);
    const whoamiRun = await load(whoamiUrl, { cookie }, seconds, server.pid, cookies);
    const forwardAuthRun = await load(forwardAuthUrl, forwarded, seconds, server.pid, cookies);
    results.push({
      bare: bareRun,
      bareForwardAuth: bareForwardAuthRun,
      whoami: whoamiRun,
      forwardAuth: forwardAuthRun,
    });
  }
  const writeRate = await writer?.stop();
  console.log(
    `database: ${database ? 'PostgreSQL' : 'SQLite'}; ${connections} connections, ${seconds} s per run, ` +
      `${sessionCount} session(s) asked in turn`,
  );
  if (writer) {
    const kind = values.counted ? "changes to another person's record" : 'audit entries';
    console.log(`commits from outside the portal meanwhile: ${writeRate.toFixed(1)} a second, ${kind}`);
  }
  console.log(`answer sizes: whoami ${whoamiBytes} bytes, bare ${bareBytes} bytes; ${os.cpus().length} cores`);
  console.log(`load average before the runs: ${loadBefore.map((l) => l.toFixed(2)).join(', ')}`);
  console.log(
    '\n| round | bare req/s | bare p99 ms | whoami req/s | whoami p99 ms | whoami/bare ' +
      '| bare forward-auth req/s | forward-auth req/s | forward-auth p99 ms | forward-auth/bare forward-auth |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [i, { bare: b, bareForwardAuth: bf, whoami: w, forwardAuth: fa }] of results.entries()) {
    console.log(
      `| ${i + 1} | ${b.rps.toFixed(0)} | ${b.p99} | ${w.rps.toFixed(0)} | ${w.p99} | ${(w.rps / b.rps).toFixed(3)} ` +
        `| ${bf.rps.toFixed(0)} | ${fa.rps.toFixed(0)} | ${fa.p99} | ${(fa.rps / bf.rps).toFixed(3)} |`,
    );
  }
  // CPU per answer moves far less than req/s when something else runs on the machine.
  console.log('\n| round | CPU µs/answer: bare | whoami | bare forward-auth | forward-auth |');
  console.log('|---|---|---|---|---|');
  for (const [i, { bare: b, bareForwardAuth: bf, whoami: w, forwardAuth: fa }] of results.entries()) {
    const micros = (run) => run.cpu.toFixed(1);
    console.log(`| ${i + 1} | ${micros(b)} | ${micros(w)} | ${micros(bf)} | ${micros(fa)} |`);
  }
  const rss = readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1];
  if (rss) console.log(`\nserver memory (RSS) after the runs: ${(Number(rss) / 1024).toFixed(0)} MiB`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await bench.stop();
  await postgres?.stop();
}
