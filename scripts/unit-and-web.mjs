#!/usr/bin/env node
// Runs the unit tests (next to the code, in-process) and then the web app's component tests (jsdom), two files at a
// time. Two runs: the unit tests' workers keep their modules from file to file (workersKeepingModules), while the
// component tests get a new process per file: vitest makes a new jsdom window per file, and modules loaded once keep
// the first one (Testing Library's `screen`, react-aria), so 299 of 403 failed without it.
import { INTERRUPTED, runVitest, workersKeepingModules } from './lib/watched-vitest.mjs';

const filters = process.argv.slice(2);
// A file filter may name files of one project only.
const none = filters.length > 0 ? ['--passWithNoTests'] : [];

// Each run takes 0.5 to 3 minutes; one that hangs is ended after 10 and says where it hung.
const unit = await runVitest(['--project', 'unit', ...workersKeepingModules(2), ...none, ...filters], {
  limitMinutes: 10,
  label: 'The unit tests',
});
if (unit === INTERRUPTED) process.exit(INTERRUPTED);
const web = await runVitest(['--project', 'web', '--maxWorkers=2', '--minWorkers=1', ...none, ...filters], {
  limitMinutes: 10,
  label: 'The web tests',
});
process.exit(web === INTERRUPTED ? INTERRUPTED : unit !== 0 || web !== 0 ? 1 : 0);
