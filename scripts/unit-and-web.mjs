#!/usr/bin/env node
// Runs the unit tests (next to the code, in-process) and the web app's component tests (jsdom), two files at a time.
import { runVitest } from './lib/watched-vitest.mjs';

// The run takes 2 to 3 minutes; one that hangs is ended after 10 and says where it hung.
const status = await runVitest(
  ['--project', 'unit', '--project', 'web', '--maxWorkers=2', '--minWorkers=1', ...process.argv.slice(2)],
  { limitMinutes: 10, label: 'The unit and web tests' },
);
process.exit(status);
