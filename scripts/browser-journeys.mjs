#!/usr/bin/env node
// Runs the browser journeys (e2e/browser) in Debian's Chromium against real `portaal` processes. A failing journey
// leaves a screenshot and the console log of every page it opened; this prints where.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runVitest, workersKeepingModules } from './lib/watched-vitest.mjs';

const artefacts = fileURLToPath(new URL('../test-results/browser/', import.meta.url));
rmSync(artefacts, { recursive: true, force: true });

console.log('\n=== browser journeys in Chromium ===');
// Four journeys at a time, each with its own Chromium and `portaal`: they wait on pages and timers much of the time.
// Two at a time kept the two cores 75 % busy (1.5 of 2, sampled over a whole run); four took the run from 245 to 210 s
// against three, the cores 90 % busy.
const workers = workersKeepingModules(4);
// Both Ory Elements journeys serve one build of their harness page, made by the first (e2e/support/ory-elements.ts).
const oryElementsBuild = mkdtempSync(path.join(os.tmpdir(), 'ory-elements-'));
// The journeys take 3 to 5 minutes; a run that hangs is ended after 20 and says where it hung.
const status = await runVitest(['--project', 'browser', ...workers, ...process.argv.slice(2)], {
  env: { ...process.env, ORY_ELEMENTS_BUILD_DIR: oryElementsBuild },
  limitMinutes: 20,
  label: 'The browser journeys',
});
rmSync(oryElementsBuild, { recursive: true, force: true });
if (status !== 0) {
  console.error(
    `\nScreenshots and console logs of the failed journeys: ${path.relative(process.cwd(), artefacts) || artefacts}`,
  );
}
process.exit(status);
