#!/usr/bin/env node
// Seeds an organisation of 10,000 users, starts `portaal` on it and prints the median and p99 latency of
// GET /api/users (as its administrator), GET /sessions/whoami and GET /api/forward-auth (the check a reverse proxy
// makes for every request to a data service). Run after `npm run build`:
//   node bench/users-api-latency.mjs [--users 10000] [--runs 30] [--postgres | --database postgres://…]
// The list is fetched as a browser would, gzip accepted, and parsed: the time includes both ends.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startThrowawayPostgres } from '../scripts/lib/throwaway-postgres.mjs';
import { startOrganisation } from './support/organisation.mjs';

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
    // A forward-auth check that passes answers with headers only.
    const text = await response.text();
    last = text ? JSON.parse(text) : null;
    if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(last)}`);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { ...stats(samples), last, encoding };
}

let organisation;
try {
  organisation = await startOrganisation({ users: userCount, database });
  const { publicUrl, server, fetch: f } = organisation;
  await measure(f, `${publicUrl}/api/users`, 2); // warm-up
  const users = await measure(f, `${publicUrl}/api/users`, runs);
  const whoami = await measure(f, `${publicUrl}/sessions/whoami`, runs * 10);
  const forwardAuth = await measure(f, `${publicUrl}/api/forward-auth?service=wijkmonitor`, runs * 10);
  if (users.last.length !== userCount + 1) throw new Error(`expected ${userCount + 1} users, got ${users.last.length}`);
  const rss = readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1];
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
    `| GET /api/forward-auth | ${runs * 10} | ${forwardAuth.median.toFixed(2)} | ` +
      `${forwardAuth.p99.toFixed(2)} | ${forwardAuth.max.toFixed(2)} |`,
  );
  console.log(
    `\nthe list: ${(JSON.stringify(users.last).length / 2 ** 20).toFixed(1)} MiB as JSON, ` +
      `sent with content-encoding ${users.encoding}`,
  );
  if (rss) console.log(`\nserver memory (RSS) after the runs: ${(Number(rss) / 1024).toFixed(0)} MiB`);
} finally {
  await organisation?.stop();
  await postgres?.stop();
}
