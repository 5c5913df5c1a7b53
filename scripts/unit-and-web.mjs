#!/usr/bin/env node
// Runs the unit tests (next to the code, in-process) and then the web app's component tests (jsdom), two files at a
// time, their workers keeping their modules from file to file (workersKeepingModules). Two runs, as vitest recycles its
// workers between environments anyway. The component tests keep one jsdom window per worker
// (apps/web/src/test-environment.ts): vitest's own makes one per file, and modules loaded once keep the first.
import { INTERRUPTED, runVitest, workersKeepingModules } from './lib/watched-vitest.mjs';

const filters = process.argv.slice(2);
// A file filter may name files of one project only.
const none = filters.length > 0 ? ['--passWithNoTests'] : [];

// Each run takes 0.5 to 1 minute; one that hangs is ended after 10 and says where it hung.
const run = (project, label) =>
  runVitest(['--project', project, ...workersKeepingModules(2), ...none, ...filters], { limitMinutes: 10, label });
const unit = await run('unit', 'The unit tests');
if (unit === INTERRUPTED) process.exit(INTERRUPTED);
const web = await run('web', 'The web tests');
process.exit(web === INTERRUPTED ? INTERRUPTED : unit !== 0 || web !== 0 ? 1 : 0);
