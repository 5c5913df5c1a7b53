// better-sqlite3's SQLite is compiled by its own install script, which `ignore-scripts` in .npmrc keeps `npm install`
// from running (README, 'Developing'): `npm run build` runs it, and so does vitest before tests that open a database,
// for whoever runs `npx vitest` before a build.
import { execFile } from 'node:child_process';

/** The npm command that compiles it: better-sqlite3's own install script. */
export const COMPILE_SQLITE = ['rebuild', 'better-sqlite3', '--ignore-scripts=false'];

/** Whether better-sqlite3 loads its compiled SQLite: false after an install that ran no install scripts. */
export function sqliteLoads(root) {
  const open = "new (require('better-sqlite3'))(':memory:').close()";
  return new Promise((resolve) => execFile(process.execPath, ['-e', open], { cwd: root }, (error) => resolve(!error)));
}
