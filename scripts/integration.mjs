#!/usr/bin/env node
// Runs the integration project on SQLite, then on a throwaway PostgreSQL cluster started here, then the Users API
// files with the Ory adapter. TEST_DATABASES=sqlite,postgres,ory picks runs; file filters pick files.
import { startThrowawayPostgres } from './lib/throwaway-postgres.mjs';
import { INTERRUPTED, runVitest, workersKeepingModules } from './lib/watched-vitest.mjs';

const vitest = (env, label, files = process.argv.slice(2)) => {
  console.log(`\n=== integration tests on ${label} ===`);
  // Six files at a time, each with its own portal and database: the files wait on sockets and timers much of the
  // time. On two cores, two at a time took the runs from about 950 to 580 seconds; four took SQLite's from 351 to 268,
  // six from 132 to 111 (eight: 105). (vitest 3 reads maxWorkers only from the command line.)
  const workers = workersKeepingModules(6);
  // A run takes 1 to 5 minutes; one that hangs is ended after 15 and says where it hung.
  return runVitest(['--project', 'integration', ...workers, ...files], {
    env: { ...process.env, ...env },
    limitMinutes: 15,
    label: `The integration tests on ${label}`,
  });
};

const only = process.env.TEST_DATABASES?.split(',') ?? ['sqlite', 'postgres'];
let failed = false;
let interrupted = false;
/** Notes a run's status; after Ctrl-C nothing more runs (what a run started is ended before this exits). */
const ran = (status) => {
  interrupted = status === INTERRUPTED;
  failed = status !== 0 || failed;
};
const goOn = () => !interrupted;
if (only.includes('sqlite')) ran(await vitest({ TEST_DATABASE: 'sqlite' }, 'SQLite'));
if (only.includes('postgres') && goOn()) {
  const postgres = await startThrowawayPostgres();
  try {
    ran(await vitest({ TEST_DATABASE: 'postgres', TEST_POSTGRES_URL: postgres.url }, 'PostgreSQL'));
  } finally {
    await postgres.stop();
  }
}
// The Users API suite once more with the Ory adapter, against Kratos and Keto played by a second `portaal`.
if ((only.includes('ory') || (only.includes('sqlite') && process.argv.length === 2)) && goOn()) {
  ran(
    await vitest({ TEST_DATABASE: 'sqlite', TEST_IDENTITY_BACKEND: 'ory' }, 'SQLite with the Ory adapter', [
      'e2e/api/users-api',
      'e2e/api/catalogue',
    ]),
  );
}
process.exit(interrupted ? INTERRUPTED : failed ? 1 : 0);
