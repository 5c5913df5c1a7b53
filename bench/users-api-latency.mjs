#!/usr/bin/env node
// Seeds an organisation of 10,000 users, starts `portaal` on it and prints the median and p99 latency of
// GET /api/users (as its administrator) and GET /sessions/whoami. Run after `npm run build`:
//   node bench/users-api-latency.mjs [--users 10000] [--runs 30] [--postgres | --database postgres://…]
// The list is fetched as a browser would, gzip accepted, and parsed: the time includes both ends.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import fetchCookie from 'fetch-cookie';
import { generate } from 'otplib';
import { CookieJar } from 'tough-cookie';
import { createIdentityWithPassword, insertIdentity, systemClock } from '@portaal/idp';
import { DEMO_CATALOGUE_FILE } from '@portaal/users-api';
import { startThrowawayPostgres } from '../scripts/lib/throwaway-postgres.mjs';
import { loadConfig } from '../apps/server/dist/config.js';
import { withProduct } from '../apps/server/dist/product.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '30' },
    database: { type: 'string' },
    postgres: { type: 'boolean', default: false },
  },
});
const postgres = values.postgres ? await startThrowawayPostgres() : undefined;
const database = values.database ?? postgres?.url;
const userCount = Number(values.users);
const runs = Number(values.runs);
const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-bench-'));
const ADMIN = { email: 'bench-beheerder@voorbeeldstad.nl', password: 'Bench-Molen-Gracht-2026' };

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function seed(env) {
  const config = loadConfig(env);
  const silent = {
    info() {},
    warn() {},
    error() {},
    debug() {},
    trace() {},
    fatal() {},
    child() {
      return silent;
    },
    level: 'silent',
  };
  await withProduct(config, silent, async (product) => {
    await product.catalogue.loadFile(DEMO_CATALOGUE_FILE);
    const adminId = await createIdentityWithPassword(product.idp.services, {
      email: ADMIN.email,
      firstName: 'Bench',
      lastName: 'Beheerder',
      password: ADMIN.password,
      verified: true,
    });
    await product.relations.patch({
      insert: [
        { namespace: 'organizations', object: 'voorbeeldstad', relation: 'issuer', subject_id: adminId },
        { namespace: 'organizations', object: 'voorbeeldstad', relation: 'admin', subject_id: adminId },
      ],
    });
    const roles = ['sociaal-domein', 'ruimte', 'financien'];
    for (let start = 0; start < userCount; start += 1000) {
      await product.db.kysely.transaction().execute(async (trx) => {
        const tuples = [];
        for (let i = start; i < Math.min(start + 1000, userCount); i += 1) {
          const id = await insertIdentity(trx, systemClock, {
            traits: { email: `gebruiker${i}@voorbeeldstad.nl`, name: { first: 'Gebruiker', last: String(i) } },
          });
          tuples.push({ namespace: 'organizations', object: 'voorbeeldstad', relation: 'issuer', subject_id: id });
          tuples.push({
            namespace: 'subdivisions',
            object: `${roles[i % 3]}_voorbeeldstad`,
            relation: 'issuer',
            subject_id: id,
          });
        }
        await product.relations.within(trx).patch({ insert: tuples });
      });
    }
  });
}

async function signIn(publicUrl) {
  const jar = new CookieJar();
  const f = fetchCookie(fetch, jar);
  const json = { accept: 'application/json', 'content-type': 'application/json' };
  const csrf = (flow) => flow.ui.nodes.find((n) => n.attributes.name === 'csrf_token').attributes.value;
  const login = await (await f(`${publicUrl}/self-service/login/browser`, { headers: json })).json();
  await f(login.ui.action, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      method: 'password',
      identifier: ADMIN.email,
      password: ADMIN.password,
      csrf_token: csrf(login),
    }),
  });
  const settings = await (await f(`${publicUrl}/self-service/settings/browser`, { headers: json })).json();
  const secret = settings.ui.nodes.find((n) => n.attributes.id === 'totp_secret_key').attributes.text.text;
  const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
  const enrolled = await f(settings.ui.action, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ method: 'totp', totp_code: code, csrf_token: csrf(settings) }),
  });
  if (!enrolled.ok) throw new Error(`TOTP enrolment failed: ${enrolled.status}`);
  return f;
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

async function measure(f, url, count) {
  const samples = [];
  let last;
  let encoding;
  for (let i = 0; i < count; i += 1) {
    const started = process.hrtime.bigint();
    const response = await f(url, { headers: { accept: 'application/json' } });
    encoding = response.headers.get('content-encoding') ?? 'identity';
    last = await response.json();
    if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(last)}`);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { ...stats(samples), last, encoding };
}

const port = await freePort();
let adminPort = await freePort();
// Two asks in a row may get the same port back.
while (adminPort === port) adminPort = await freePort();
const env = {
  PATH: process.env.PATH,
  DATA_DIR: dataDir,
  PORT: String(port),
  ADMIN_PORT: String(adminPort),
  LOG_LEVEL: 'warn',
  ...(database ? { DATABASE_URL: database } : {}),
};
let server;
try {
  const seedStart = Date.now();
  await seed(env);
  console.log(
    `seeded ${userCount} users in ${((Date.now() - seedStart) / 1000).toFixed(1)} s ` +
      `(${database ? 'PostgreSQL' : 'SQLite'})`,
  );
  server = spawn(process.execPath, [path.join(root, 'apps/server/bin/portaal.js'), 'serve'], { env, stdio: 'ignore' });
  const publicUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i += 1) {
    if ((await fetch(`http://127.0.0.1:${adminPort}/health/ready`).catch(() => undefined))?.ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const f = await signIn(publicUrl);
  await measure(f, `${publicUrl}/api/users`, 2); // warm-up
  const users = await measure(f, `${publicUrl}/api/users`, runs);
  const whoami = await measure(f, `${publicUrl}/sessions/whoami`, runs * 10);
  if (users.last.length !== userCount + 1) throw new Error(`expected ${userCount + 1} users, got ${users.last.length}`);
  const rss = (await import('node:fs')).readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1];
  console.log(`\n| call | runs | median ms | p99 ms | max ms |\n|---|---|---|---|---|`);
  console.log(
    `| GET /api/users (${users.last.length} users) | ${runs} | ${users.median.toFixed(1)} | ` +
      `${users.p99.toFixed(1)} | ${users.max.toFixed(1)} |`,
  );
  console.log(
    `| GET /sessions/whoami | ${runs * 10} | ${whoami.median.toFixed(2)} | ` +
      `${whoami.p99.toFixed(2)} | ${whoami.max.toFixed(2)} |`,
  );
  console.log(
    `\nthe list: ${(JSON.stringify(users.last).length / 2 ** 20).toFixed(1)} MiB as JSON, ` +
      `sent with content-encoding ${users.encoding}`,
  );
  if (rss) console.log(`\nserver memory (RSS) after the runs: ${(Number(rss) / 1024).toFixed(0)} MiB`);
} finally {
  server?.kill('SIGTERM');
  if (server && server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
