#!/usr/bin/env node
// Imports 5,000 people from a CSV file into an organisation that has `--users` members already, as the screen does
// it (`POST /api/imports`, then `POST /api/imports/:id/start`, following `GET /api/imports/:id`), and prints how long
// the preview and the import took, the rate, and the server's memory after it (issue 30: under a minute).
// Run after `npm run build`:
//   node bench/import.mjs [--rows 5000] [--users 1000] [--postgres | --database postgres://…]
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { startThrowawayPostgres } from '../scripts/lib/throwaway-postgres.mjs';
import { startOrganisation } from './support/organisation.mjs';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '5000' },
    users: { type: 'string', default: '1000' },
    database: { type: 'string' },
    postgres: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const postgres = values.postgres ? await startThrowawayPostgres() : undefined;
const database = values.database ?? postgres?.url;
const roles = ['Sociaal domein', 'Ruimte en wonen', 'Financiën', ''];

/** `rows` new people, every fourth without a data role, and one row in fifty refused (an unknown role). */
function file() {
  const lines = ['Voornaam;Achternaam;E-mailadres;Datarollen;Beheerder'];
  for (let i = 0; i < rows; i += 1) {
    const role = i % 50 === 49 ? 'Onbekend' : roles[i % 4];
    lines.push(`Import;Persoon ${i};import${i}@voorbeeldstad.nl;${role};nee`);
  }
  return lines.join('\r\n');
}

const seconds = (from) => (Number(process.hrtime.bigint() - from) / 1e9).toFixed(1);

let organisation;
try {
  organisation = await startOrganisation({ users: Number(values.users), database });
  const { publicUrl, fetch: f, server } = organisation;
  const call = async (method, path, body) => {
    const response = await f(`${publicUrl}/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(method === 'GET' ? {} : { origin: publicUrl }),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  console.log(
    `${os.cpus().length} cores, load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const csv = file();
  const previewStart = process.hrtime.bigint();
  const preview = await call('POST', '/imports', { fileName: 'bench.csv', csv });
  const previewSeconds = seconds(previewStart);
  const importStart = process.hrtime.bigint();
  await call('POST', `/imports/${preview.id}/start`);
  let job;
  // The screen asks every second; the bench a little more often, to time the end closely.
  do {
    await new Promise((resolve) => setTimeout(resolve, 250));
    job = await call('GET', `/imports/${preview.id}`);
  } while (job.state !== 'done');
  const importSeconds = seconds(importStart);
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const rss = Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  console.log(`\n| Figure | Value |\n|---|---|`);
  console.log(`| database | ${database ? 'PostgreSQL' : 'SQLite'}, ${values.users} members before |`);
  console.log(`| rows in the file | ${rows} (${(csv.length / 1024).toFixed(0)} kB) |`);
  console.log(`| preview (read, plan, store) | ${previewSeconds} s |`);
  console.log(`| import (start to done) | ${importSeconds} s, ${(rows / Number(importSeconds)).toFixed(0)} rows/s |`);
  console.log(`| outcomes | ${JSON.stringify(job.progress.outcomes)} |`);
  console.log(`| server memory (RSS) after | ${rss} MiB |`);
  console.log(`| goal | 5,000 rows under a minute |`);
} finally {
  await organisation?.stop();
  await postgres?.stop();
}
