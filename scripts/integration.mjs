#!/usr/bin/env node
// Runs the integration project on SQLite, with the Users API files once more with the Ory adapter beside them, then the
// files of e2e/api/postgresql-files.mjs on a throwaway PostgreSQL cluster started here. TEST_DATABASES=sqlite,postgres,
// ory picks runs; file filters pick files (on PostgreSQL too, whether listed or not). TEST_POSTGRES_STATEMENTS=<folder>
// runs every file on PostgreSQL and keeps what each sent there (scripts/postgresql-statements.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { POSTGRESQL_FILES } from '../e2e/api/postgresql-files.mjs';
import { startThrowawayPostgres } from './lib/throwaway-postgres.mjs';
import { INTERRUPTED, runVitest, workersKeepingModules } from './lib/watched-vitest.mjs';

const vitest = (env, label, projects = ['integration'], files = []) => {
  console.log(`\n=== integration tests on ${label} ===`);
  // Six files at a time, each with its own portal and database: the files wait on sockets and timers much of the
  // time. On two cores, two at a time took the runs from about 950 to 580 seconds; four took SQLite's from 351 to 268,
  // six from 132 to 111 (eight: 105). (vitest 3 reads maxWorkers only from the command line.)
  const workers = workersKeepingModules(6);
  // A run takes 1 to 5 minutes; one that hangs is ended after 15 and says where it hung.
  const chosen = projects.flatMap((project) => ['--project', project]);
  return runVitest([...chosen, ...workers, ...process.argv.slice(2), ...files], {
    env: { ...process.env, ...env },
    limitMinutes: 15,
    label: `The integration tests on ${label}`,
  });
};

/**
 * A database that `portaal migrate` brought up to date once, for the test portals' databases to be copied from
 * (`CREATE DATABASE … TEMPLATE`, e2e/support/database.ts): migrating a new database cost every start of a test portal
 * on PostgreSQL about 270 ms of CPU, the server's included. Tests of a first start on a new database still get an
 * empty one.
 */
async function migratedTemplate(url) {
  const name = 'portaal_migrated';
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-template-'));
  try {
    // In a coverage run (scripts/coverage.mjs) the migrations count as the test portals' own starts would have.
    const coverage = process.env.PORTAAL_COVERAGE_DIR;
    const portaal = coverage ? '../e2e/support/portaal-modules.mjs' : '../apps/server/bin/portaal.js';
    execFileSync(process.execPath, [fileURLToPath(new URL(portaal, import.meta.url)), 'migrate'], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl.toString(),
        ...(coverage ? { NODE_V8_COVERAGE: coverage } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return name;
}

const only = process.env.TEST_DATABASES?.split(',') ?? ['sqlite', 'postgres'];
let failed = false;
let interrupted = false;
/** Notes a run's status; after Ctrl-C nothing more runs (what a run started is ended before this exits). */
const ran = (status) => {
  interrupted = status === INTERRUPTED;
  failed = status !== 0 || failed;
};
const goOn = () => !interrupted;
// The Users API files with the Ory adapter (the `integration-ory` project) run beside the SQLite files: in a run
// of their own they took 34 s more.
const ory = only.includes('ory') || (only.includes('sqlite') && process.argv.length === 2);
if (only.includes('sqlite')) {
  ran(
    await vitest({ TEST_DATABASE: 'sqlite' }, ory ? 'SQLite, and with the Ory adapter' : 'SQLite', [
      'integration',
      ...(ory ? ['integration-ory'] : []),
    ]),
  );
} else if (ory) {
  ran(await vitest({ TEST_DATABASE: 'sqlite' }, 'SQLite with the Ory adapter', ['integration-ory']));
}
/**
 * Whether the command line names files: vitest takes each word that is not an option as a filter on the files' paths.
 * A word no integration file's path holds is an option's value given without `=` (`--reporter verbose`), not a filter.
 */
const argv = process.argv.slice(2);
const words = argv.filter((arg, i) => !arg.startsWith('-') && !['-t', '--testNamePattern'].includes(argv[i - 1]));
const namesFiles = words.length > 0 && integrationFiles().some((file) => words.some((word) => file.includes(word)));
const statements = process.env.TEST_POSTGRES_STATEMENTS;
if (only.includes('postgres') && goOn()) {
  const postgres = await startThrowawayPostgres({ statements: Boolean(statements) });
  try {
    const template = await migratedTemplate(postgres.url);
    const env = { TEST_DATABASE: 'postgres', TEST_POSTGRES_URL: postgres.url, TEST_POSTGRES_TEMPLATE: template };
    if (statements) env.TEST_POSTGRES_DATABASES = path.join(statements, 'databases.tsv');
    const files = namesFiles || statements ? [] : POSTGRESQL_FILES;
    ran(await vitest(env, files.length > 0 ? `PostgreSQL (${files.length} files)` : 'PostgreSQL', undefined, files));
    if (statements) await keepStatements(postgres.url, path.join(statements, 'statements.json'));
  } finally {
    await postgres.stop();
  }
}

/** The paths of the integration project's files (vitest.config.ts), relative to the repository. */
function integrationFiles() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const under = (folder) =>
    existsSync(path.join(root, folder))
      ? readdirSync(path.join(root, folder), { recursive: true }).map((file) => path.join(folder, String(file)))
      : [];
  // Each package's and app's own sources: their node_modules are left out.
  const sources = ['packages', 'apps'].flatMap((folder) =>
    readdirSync(path.join(root, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => under(path.join(folder, entry.name, 'src'))),
  );
  return [
    ...under('e2e/api').filter((file) => file.endsWith('.test.ts')),
    ...sources.filter((file) => file.endsWith('.integration.test.ts')),
  ];
}

/** What pg_stat_statements counted, per database: each statement's text with its constants as parameters. */
async function keepStatements(url, file) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { rows } = await client.query(
      'SELECT d.datname AS database, s.query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid',
    );
    writeFileSync(file, JSON.stringify(rows));
  } finally {
    await client.end();
  }
}
process.exit(interrupted ? INTERRUPTED : failed ? 1 : 0);
