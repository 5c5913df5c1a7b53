import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { COMPILE_SQLITE, sqliteLoads } from '../../scripts/lib/sqlite-compiled.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * vitest's global setup: compiles better-sqlite3's SQLite when an install left it out and no build has run since
 * (scripts/lib/sqlite-compiled.mjs), instead of every test that opens a database failing on a missing bindings file.
 */
export default async function compileSqliteOnce(): Promise<void> {
  if (await sqliteLoads(root)) return;
  console.log('vitest: SQLite for better-sqlite3 is compiled once after each install (one to two minutes)');
  const compiled = spawnSync('npm', COMPILE_SQLITE, { cwd: root, stdio: 'inherit' });
  if (compiled.status !== 0) throw new Error(`npm ${COMPILE_SQLITE.join(' ')} failed`);
}
