#!/usr/bin/env node
// Lighthouse (mobile preset, simulated throttling) on the pages people open without a session: performance,
// accessibility, LCP, total blocking time and layout shift, the median of several runs per page. Starts its own
// `portaal serve --demo`. Lighthouse is not a dependency of the project: npx fetches it from the registry.
// Run after `npm run build`:
//   node bench/lighthouse.mjs [--runs 3] [--pages login,recovery,verification] [--chromium /usr/bin/chromium]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { freePort } from './support/free-port.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    pages: { type: 'string', default: 'login,recovery,verification' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});
const portaal = fileURLToPath(new URL('../apps/server/bin/portaal.js', import.meta.url));

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-lighthouse-'));
const [port, adminPort] = [await freePort(), await freePort()];
const env = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), ADMIN_PORT: String(adminPort) };
const child = spawn(process.execPath, [portaal, 'serve', '--demo'], { env, stdio: 'ignore' });
try {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`portaal exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${adminPort}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  console.log(
    `load average at start: ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  console.log('page          performance  accessibility  LCP ms  TBT ms  CLS');
  for (const page of values.pages.split(',')) {
    const runs = [];
    for (let run = 0; run < Number(values.runs); run++) {
      const output = path.join(dataDir, `${page}-${run}.json`);
      execFileSync(
        'npx',
        [
          '--yes',
          'lighthouse@12',
          `http://127.0.0.1:${port}/${page}`,
          `--chrome-path=${values.chromium}`,
          '--chrome-flags=--headless=new --no-sandbox',
          '--only-categories=performance,accessibility',
          '--output=json',
          `--output-path=${output}`,
          '--quiet',
        ],
        { stdio: 'pipe' },
      );
      const report = JSON.parse(readFileSync(output, 'utf8'));
      runs.push({
        performance: report.categories.performance.score * 100,
        accessibility: report.categories.accessibility.score * 100,
        lcp: report.audits['largest-contentful-paint'].numericValue,
        tbt: report.audits['total-blocking-time'].numericValue,
        cls: report.audits['cumulative-layout-shift'].numericValue,
      });
    }
    const of = (key) => median(runs.map((r) => r[key]));
    console.log(
      `${page.padEnd(14)}${String(Math.round(of('performance'))).padStart(11)}` +
        `${String(Math.round(of('accessibility'))).padStart(15)}${String(Math.round(of('lcp'))).padStart(8)}` +
        `${String(Math.round(of('tbt'))).padStart(8)}  ${of('cls').toFixed(3)}` +
        `   (performance per run: ${runs.map((r) => Math.round(r.performance)).join(', ')})`,
    );
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
