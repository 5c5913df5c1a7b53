#!/usr/bin/env node
// Runs the integration project twice: on SQLite, then on a throwaway PostgreSQL cluster started here.
import { spawnSync } from 'node:child_process';
import { startThrowawayPostgres } from './lib/throwaway-postgres.mjs';

const vitest = (env, label) => {
  console.log(`\n=== integration tests on ${label} ===`);
  const result = spawnSync('npx', ['vitest', 'run', '--project', 'integration', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
};

const only = process.env.TEST_DATABASES?.split(',') ?? ['sqlite', 'postgres'];
let failed = false;
if (only.includes('sqlite')) failed = vitest({ TEST_DATABASE: 'sqlite' }, 'SQLite') !== 0 || failed;
if (only.includes('postgres')) {
  const postgres = await startThrowawayPostgres();
  try {
    failed = vitest({ TEST_DATABASE: 'postgres', TEST_POSTGRES_URL: postgres.url }, 'PostgreSQL') !== 0 || failed;
  } finally {
    await postgres.stop();
  }
}
process.exit(failed ? 1 : 0);
