#!/usr/bin/env node
// Statement coverage of packages/*/src by every test that runs that code, printed per package and in total:
//   1. the unit tests and the in-process integration tests, under vitest's V8 coverage;
//   2. the integration runs (SQLite, PostgreSQL, the Ory adapter) and the browser journeys, whose every `portaal`
//      process runs tsc's separate modules (e2e/support/portaal-modules.mjs) and writes V8's coverage at its exit;
//   3. c8 maps those through the modules' source maps, and the two are merged.
// A statement is a line of the TypeScript source, as c8 and vitest count them. Code that only a process killed with
// SIGKILL ran (the crash tests) is not counted. Takes as long as `npm test` and a few minutes more; the reports stay in
// coverage/ (coverage/index.html per file).
//   node scripts/coverage.mjs [--no-journeys] [--report-only]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Report } from 'c8';
import libCoverage from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import reports from 'istanbul-reports';

const { values } = parseArgs({
  options: {
    'no-journeys': { type: 'boolean', default: false },
    // Prints again from what coverage/ holds, without running the tests.
    'report-only': { type: 'boolean', default: false },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const out = path.join(root, 'coverage');
const inProcess = path.join(out, 'in-process');
const processes = path.join(out, 'processes');
const INCLUDE = ['packages/*/src/**/*.ts'];
const EXCLUDE = ['**/*.test.ts', '**/*.d.ts', '**/test-*.ts'];

function run(command, args, env = {}) {
  console.log(`\n=== ${[command, ...args].join(' ')} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

/** Runs the tests with coverage into coverage/; answers whether any failed. */
function runTests() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(processes, { recursive: true });
  if (run('npm', ['run', 'build', '--silent']) !== 0) process.exit(1);

  // 1. In this process's vitest workers: the unit tests (the server's and the deployment's run packages' code too) and
  // the integration project's in-process files, which sit under packages/.
  const inProcessFiles = ['packages/', 'apps/server/', 'deploy/'];
  const coverageFlags = [
    '--coverage.enabled',
    '--coverage.provider=v8',
    '--coverage.reporter=json',
    `--coverage.reportsDirectory=${inProcess}`,
    ...INCLUDE.map((glob) => `--coverage.include=${glob}`),
    ...EXCLUDE.map((glob) => `--coverage.exclude=${glob}`),
  ];
  let failed =
    run('npx', [
      'vitest',
      'run',
      '--project',
      'unit',
      '--project',
      'integration',
      ...coverageFlags,
      ...inProcessFiles,
    ]) !== 0;

  // 2. In the `portaal` processes the integration runs and the journeys start.
  const env = { PORTAAL_COVERAGE_DIR: processes };
  failed = run('node', ['scripts/integration.mjs'], env) !== 0 || failed;
  if (!values['no-journeys']) failed = run('node', ['scripts/browser-journeys.mjs'], env) !== 0 || failed;
  return failed;
}

const failed = values['report-only'] ? false : runTests();

// V8 writes every script a process ran, node's own and node_modules' too: keep ours, so that c8 reads megabytes
// instead of gigabytes (once: a --report-only run finds them kept already).
const ours = (url) =>
  url.startsWith('file://') && /\/(packages\/[^/]+|apps\/server)\/dist\//.test(url) && !url.includes('/node_modules/');
const measured = readdirSync(processes);
if (!values['report-only']) {
  for (const name of measured) {
    const file = path.join(processes, name);
    const coverage = JSON.parse(readFileSync(file, 'utf8'));
    coverage.result = coverage.result.filter((script) => ours(script.url));
    writeFileSync(file, JSON.stringify(coverage));
  }
}

// 3. Map, merge and print.
const fromProcesses = await Report({
  tempDirectory: processes,
  reporter: [],
  include: INCLUDE,
  exclude: EXCLUDE,
  excludeAfterRemap: true,
  src: [root],
}).getCoverageMapFromAllCoverageFiles();
const map = libCoverage.createCoverageMap(JSON.parse(readFileSync(path.join(inProcess, 'coverage-final.json'))));
map.merge(fromProcesses);

const context = libReport.createContext({ dir: out, coverageMap: map });
reports.create('html').execute(context);
reports.create('json-summary').execute(context);

const byPackage = new Map();
for (const file of map.files()) {
  const name = path.relative(root, file).split(path.sep).slice(0, 2).join('/');
  const summary = byPackage.get(name) ?? libCoverage.createCoverageSummary();
  summary.merge(map.fileCoverageFor(file).toSummary());
  byPackage.set(name, summary);
}
const total = map.getCoverageSummary();
console.log(`\nStatement coverage of packages/*/src (${measured.length} portaal processes measured):\n`);
console.log('| Package | Statements | Covered | % |\n|---|---|---|---|');
for (const [name, summary] of [...byPackage].sort()) {
  const { total: all, covered, pct } = summary.statements;
  console.log(`| ${name} | ${all} | ${covered} | ${pct.toFixed(1)} |`);
}
console.log(
  `| **all** | ${total.statements.total} | ${total.statements.covered} | ${total.statements.pct.toFixed(1)} |`,
);
if (failed) console.error('\nSome tests failed: the coverage above is of a failing run.');
process.exit(failed ? 1 : 0);
