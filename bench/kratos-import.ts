// Moves `--people` people (10,000 by default) from an Ory Kratos and Keto installation into the portal with
// `portaal import kratos` and prints how long it took, the rate and the load average (issue 32: under two minutes).
// Kratos' and Keto's tables are made on a throwaway PostgreSQL cluster by e2e/support/kratos-database.ts; every person
// has an argon2id password, an authenticator app and twelve backup codes, a membership and a data role in Keto.
// Run after `npm run build`:
//   npx vite-node bench/kratos-import.ts [--people 10000] [--postgres]   (--postgres: the portal on PostgreSQL too)
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { startThrowawayPostgres } from '../scripts/lib/throwaway-postgres.mjs';
import {
  createKetoSchema,
  createKratosSchema,
  insertKetoTuple,
  insertKratosPerson,
  kratosFixturePeople,
  newDatabase,
} from '../e2e/support/kratos-database.js';

const { values } = parseArgs({
  options: { people: { type: 'string', default: '10000' }, postgres: { type: 'boolean', default: false } },
});
const count = Number(values.people);
const cluster = await startThrowawayPostgres();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-bench-'));

const database = (name: string, fill: (client: pg.Client) => Promise<void>) => newDatabase(cluster.url, name, fill);

const portaal = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['apps/server/bin/portaal.js', ...args], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
  });

try {
  // One person of the fixture's second kind (argon2id password, app, backup codes) as the pattern for everyone: the
  // import copies hashes and secrets, it never computes one, so they may be shared.
  const pattern = (await kratosFixturePeople()).find((p) => p.kind === 'argon2id-totp-lookup')!;
  const ids: string[] = [];
  const fillStart = Date.now();
  const kratos = await database('kratos', async (client) => {
    const { nid } = await createKratosSchema(client);
    await client.query('BEGIN');
    for (let i = 0; i < count; i += 1) {
      const id = randomUUID();
      ids.push(id);
      const email = `persoon${i}@voorbeeldstad.nl`;
      await insertKratosPerson(client, nid, {
        ...pattern.person,
        id,
        traits: { email, name: { first: 'Persoon', last: String(i) } },
        addresses: [{ value: email, verified: true }],
      });
    }
    await client.query('COMMIT');
  });
  const keto = await database('keto', async (client) => {
    const { nid } = await createKetoSchema(client);
    await client.query('BEGIN');
    for (const id of ids) {
      await insertKetoTuple(client, nid, {
        namespace: 'organizations',
        object: 'voorbeeldstad',
        relation: 'issuer',
        subjectId: id,
      });
      await insertKetoTuple(client, nid, {
        namespace: 'subdivisions',
        object: 'ruimte_voorbeeldstad',
        relation: 'issuer',
        subjectId: id,
      });
    }
    await client.query('COMMIT');
  });
  console.log(`Kratos and Keto filled with ${count} people in ${((Date.now() - fillStart) / 1000).toFixed(0)} s`);

  const env: Record<string, string> = values.postgres
    ? { DATABASE_URL: await database('portaal', async () => {}) }
    : {};
  const loaded = portaal(['catalogue', 'load', 'packages/users-api/catalogue/demo-catalogue.json'], env);
  if (loaded.status !== 0) throw new Error(`catalogue load: ${loaded.stderr}`);
  console.log(
    `${os.cpus().length} cores, load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const start = process.hrtime.bigint();
  const done = portaal(['import', 'kratos', '--kratos-database', kratos, '--keto-database', keto], env);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (done.status !== 0) throw new Error(`import: ${done.stderr}`);
  console.log(done.stdout.split('\n').slice(0, 2).join('\n'));
  console.log(`\n| Figure | Value |\n|---|---|`);
  console.log(`| the portal's database | ${values.postgres ? 'PostgreSQL' : 'SQLite'} |`);
  console.log(`| people (with password, app, 12 backup codes, 2 tuples) | ${count} |`);
  console.log(
    `| import, the command from start to end | ${seconds.toFixed(1)} s, ${(count / seconds).toFixed(0)} people/s |`,
  );
  console.log(
    `| load average after | ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} |`,
  );
  console.log('| goal | 10,000 people under two minutes |');
} finally {
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
