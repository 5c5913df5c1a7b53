#!/usr/bin/env node
// Seeds an organisation of 10,000 users, starts `portaal` on it and prints the median and p99 latency of
// GET /api/users (as its administrator): the whole list, the overview's first page, a search and each order, and a
// page right after a change and right after a sign-in elsewhere; of GET /sessions/whoami and of GET
// /api/forward-auth (the check a reverse proxy makes for every request to a data service). Run after `npm run build`:
//   node bench/users-api-latency.mjs [--users 10000] [--runs 30] [--postgres | --database postgres://…]
//     [--profile DIR]   (writes a V8 CPU profile of the `portaal` process to DIR)
// The list is fetched as a browser would, gzip accepted, and parsed: the time includes both ends.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startThrowawayPostgres } from '../scripts/lib/throwaway-postgres.mjs';
import { ADMIN, startOrganisation } from './support/organisation.mjs';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '30' },
    database: { type: 'string' },
    postgres: { type: 'boolean', default: false },
    profile: { type: 'string' },
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

/** A password sign-in through the API flow, as another person's browser would make it. */
async function signInElsewhere(publicUrl) {
  const json = { accept: 'application/json', 'content-type': 'application/json' };
  const flow = await (await fetch(`${publicUrl}/self-service/login/api`, { headers: json })).json();
  const body = JSON.stringify({ method: 'password', identifier: ADMIN.email, password: ADMIN.password });
  const done = await fetch(flow.ui.action, { method: 'POST', headers: json, body });
  if (!done.ok) throw new Error(`sign-in: ${done.status} ${await done.text()}`);
}

let organisation;
try {
  organisation = await startOrganisation({ users: userCount, database, profile: values.profile });
  const { publicUrl, server, fetch: f } = organisation;
  await measure(f, `${publicUrl}/api/users`, 2); // warm-up
  const users = await measure(f, `${publicUrl}/api/users`, runs);
  // The overview's calls: a page of 50, a search, and each order ('Sorteer op'), first each without timing.
  const paged = (query) => `${publicUrl}/api/users?page=1&per_page=50${query}`;
  const pageCalls = {
    'first page (per_page=50)': paged(''),
    'search (q=42, page 1)': paged('&q=42'),
    'sort by name (page 1)': paged('&sort=name'),
    'sort by e-mail address (page 1)': paged('&sort=email'),
    'sort by newest account (page 1)': paged('&sort=created'),
    'last page (page 200, sort by name)': `${publicUrl}/api/users?page=200&per_page=50&sort=name`,
    'sort by last sign-in (page 1)': paged('&sort=last_sign_in'),
    // A status is decided on every person's state, lock and factors as they are now.
    'status blocked (page 1)': paged('&status=blocked'),
    'status no second factor (page 1)': paged('&status=no_second_factor'),
  };
  const pages = {};
  for (const [label, url] of Object.entries(pageCalls)) {
    await measure(f, url, 1);
    pages[label] = await measure(f, url, runs * 3);
  }
  if (pages['first page (per_page=50)'].last.total !== userCount + 1) throw new Error('the page has the wrong total');
  // The first page right after a change elsewhere in the database (a rename, alternating): the list is read afresh.
  const someone = users.last.find(
    (user) => user.traits.email !== pages['first page (per_page=50)'].last.items[0].traits.email,
  );
  const afterChange = [];
  for (let i = 0; i < runs; i += 1) {
    const rename = await f(`${publicUrl}/api/users/${someone.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: new URL(publicUrl).origin },
      body: JSON.stringify({ traits: { ...someone.traits, name: { ...someone.traits.name, last: `Hernoemd ${i}` } } }),
    });
    if (!rename.ok) throw new Error(`rename: ${rename.status} ${await rename.text()}`);
    afterChange.push((await measure(f, paged(''), 1)).median);
  }
  pages['first page right after a change'] = { ...stats(afterChange) };
  // And right after a sign-in elsewhere (a flow, a session and an audit entry written): the list is kept.
  const afterSignIn = [];
  for (let i = 0; i < runs; i += 1) {
    await signInElsewhere(publicUrl);
    afterSignIn.push((await measure(f, paged(''), 1)).median);
  }
  pages['first page right after a sign-in elsewhere'] = { ...stats(afterSignIn) };
  const whoami = await measure(f, `${publicUrl}/sessions/whoami`, runs * 10);
  const forwardAuth = await measure(f, `${publicUrl}/api/forward-auth?service=wijkmonitor`, runs * 10);
  if (users.last.length !== userCount + 1) throw new Error(`expected ${userCount + 1} users, got ${users.last.length}`);
  const rss = readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1];
  console.log(`\n| call | runs | median ms | p99 ms | max ms |\n|---|---|---|---|---|`);
  console.log(
    `| GET /api/users (${users.last.length} users) | ${runs} | ${users.median.toFixed(1)} | ` +
      `${users.p99.toFixed(1)} | ${users.max.toFixed(1)} |`,
  );
  for (const [label, result] of Object.entries(pages)) {
    const n = label.startsWith('first page right after') ? runs : runs * 3;
    console.log(
      `| GET /api/users, ${label} | ${n} | ${result.median.toFixed(1)} | ${result.p99.toFixed(1)} | ` +
        `${result.max.toFixed(1)} |`,
    );
  }
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
