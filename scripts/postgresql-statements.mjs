#!/usr/bin/env node
// Checks the choice of e2e/api/postgresql-files.mjs: runs every integration file on a throwaway PostgreSQL cluster with
// pg_stat_statements, then names each statement a portal sent there that the chosen files' portals did not, with the
// files that sent it, and fails while there is one. Takes as long as a whole PostgreSQL run (about 4 minutes).
//   node scripts/postgresql-statements.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { POSTGRESQL_FILES, TEST_STATEMENTS } from '../e2e/api/postgresql-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = mkdtempSync(path.join(os.tmpdir(), 'postgresql-statements-'));
try {
  const run = spawnSync(process.execPath, [path.join(root, 'scripts/integration.mjs')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASES: 'postgres', TEST_POSTGRES_STATEMENTS: folder },
  });
  if (run.status !== 0) {
    console.error('\nThe PostgreSQL run failed: the statements below may be incomplete.');
  }
  const fileOf = new Map(
    readFileSync(path.join(folder, 'databases.tsv'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t')),
  );
  /** Each statement once, whatever its constants and however long a list of values. */
  const shape = (query) =>
    query
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/in \(\$\d+(, \$\d+)*\)/g, 'in (…)')
      .replace(/(values \([^()]*\))(, \([^()]*\))+/g, '$1 …')
      .replace(/\$\d+/g, '$');
  const sentBy = new Map();
  for (const { database, query } of JSON.parse(readFileSync(path.join(folder, 'statements.json'), 'utf8'))) {
    const file = fileOf.get(database);
    const statement = shape(query);
    if (!file || TEST_STATEMENTS.some((pattern) => pattern.test(statement))) continue;
    sentBy.set(statement, (sentBy.get(statement) ?? new Set()).add(file));
  }
  const chosen = new Set(POSTGRESQL_FILES);
  const missing = [...sentBy].filter(([, files]) => ![...files].some((file) => chosen.has(file)));
  console.log(
    `\n${sentBy.size} distinct statements from ${new Set(fileOf.values()).size} files; ` +
      `the ${chosen.size} files of e2e/api/postgresql-files.mjs send all but ${missing.length}.`,
  );
  for (const [statement, files] of missing) console.log(`\n${statement}\n  sent by: ${[...files].sort().join(', ')}`);
  process.exit(missing.length > 0 || run.status !== 0 ? 1 : 0);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
