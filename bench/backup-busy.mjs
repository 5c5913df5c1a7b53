#!/usr/bin/env node
// `portaal backup` of a large SQLite database that the server keeps writing to (issue 27): the database is grown to
// --mib MiB, the server then takes --writes new rows a second (login flows) while the backup runs; prints how long the
// backup took and how many writes were acknowledged meanwhile, restores the backup into a new data folder, and signs
// in every account made before the backup began. Run after `npm run build`:
//   node bench/backup-busy.mjs [--mib 100] [--writes 40] [--accounts 20]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { benchPortaal } from './support/bench-portaal.mjs';

const { values } = parseArgs({
  options: {
    mib: { type: 'string', default: '100' },
    writes: { type: 'string', default: '40' },
    accounts: { type: 'string', default: '20' },
  },
});
const portaal = fileURLToPath(new URL('../apps/server/bin/portaal.js', import.meta.url));
const PASSWORD = 'Bench-Backup-Wachtwoord-77';
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

/** Runs a `portaal` command without blocking this process, so the write load goes on meanwhile. */
function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [portaal, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

async function signIn(publicUrl, email) {
  const flow = await (await fetch(`${publicUrl}/self-service/login/api`)).json();
  const answer = await fetch(`${publicUrl}/self-service/login?flow=${flow.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ method: 'password', identifier: email, password: PASSWORD }),
  });
  return answer.status === 200;
}

const source = await benchPortaal();
const restored = await benchPortaal();
try {
  await source.serve();
  const emails = [];
  for (let i = 0; i < Number(values.accounts); i += 1) {
    const email = `backup-${i}@bench.nl`;
    const made = await fetch(`${source.adminUrl}/admin/identities`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schema_id: 'default',
        traits: { email, name: { first: 'Bench', last: `Backup ${i}` } },
        credentials: { password: { config: { password: PASSWORD } } },
      }),
    });
    if (made.status !== 201) throw new Error(`creating ${email} answered ${made.status}`);
    emails.push(email);
  }

  // Grow the database with audit entries, through a connection of our own, as years of use would.
  const file = path.join(source.dataDir, 'portaal.sqlite');
  const filler = new Database(file);
  filler.pragma('busy_timeout = 5000');
  const insert = filler.prepare(
    `insert into audit_log (id, at, organisation_id, actor_id, actor_email, action, object_id, object_email, result,
       client_address, details) values (?, ?, 'bench', null, null, 'bench.filler', null, null, 'success', null, ?)`,
  );
  const pad = randomBytes(768).toString('base64');
  const target = Number(values.mib) * 1024 * 1024;
  for (let round = 0; statSync(file).size < target; round += 1) {
    filler.transaction(() => {
      for (let i = 0; i < 5_000; i += 1) {
        insert.run(`${round}-${i}`, new Date(Date.UTC(2025, 0, 1, 0, 0, round, i % 1000)).toISOString(), pad);
      }
    })();
    filler.pragma('wal_checkpoint(TRUNCATE)');
  }
  filler.close();
  console.log(`database ${mib(statSync(file).size)} MiB, ${emails.length} accounts`);

  // The write load: a new login flow (one row) every 1000/writes ms, counted when acknowledged.
  let writing = true;
  let acknowledged = 0;
  let refused = 0;
  const load = (async () => {
    const every = 1000 / Number(values.writes);
    while (writing) {
      const started = Date.now();
      const answer = await fetch(`${source.publicUrl}/self-service/login/api`).catch(() => undefined);
      if (answer?.status === 200) acknowledged += 1;
      else refused += 1;
      await answer?.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, every - (Date.now() - started))));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 1_000));

  const backupFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'portaal-backup-')), 'backup.sqlite');
  const startedAt = Date.now();
  const beforeBackup = acknowledged;
  const made = await run(['backup', backupFile], source.env);
  const seconds = (Date.now() - startedAt) / 1000;
  const during = acknowledged - beforeBackup;
  writing = false;
  await load;
  console.log(made.output.trim());
  const size = existsSync(backupFile) ? mib(statSync(backupFile).size) : '-';
  console.log(
    `backup: exit ${made.code} in ${seconds.toFixed(1)} s, ${size} MiB; ` +
      `${during} writes acknowledged during it (${(during / seconds).toFixed(0)}/s), ${refused} refused`,
  );
  if (made.code !== 0) process.exitCode = 1;
  else {
    const back = await run(['restore', backupFile], restored.env);
    if (back.code !== 0) throw new Error(`restore failed: ${back.output}`);
    await restored.serve();
    let signedIn = 0;
    for (const email of emails) if (await signIn(restored.publicUrl, email)) signedIn += 1;
    console.log(`restored: ${signedIn} of ${emails.length} accounts made before the backup sign in`);
    if (signedIn !== emails.length) process.exitCode = 1;
  }
  rmSync(path.dirname(backupFile), { recursive: true, force: true });
} finally {
  await source.stop();
  await restored.stop();
}
