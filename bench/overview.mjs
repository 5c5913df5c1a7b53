#!/usr/bin/env node
// Opens the administrators' overview with 10,000 users in Chromium and prints how long it takes from navigation to the
// first rows on screen (goal: under 500 ms), from a keystroke in 'Zoek gebruiker' to the next frame painted and to the
// rows found painted (the overview asks the server at each key), and from a choice in
// 'Sorteer op' to the rows in that order painted (goal for search and sort: under 200 ms, issues 12 and 29). Run
// after `npm run build`:
//   node bench/overview.mjs [--users 10000] [--rounds 5] [--postgres | --database postgres://…] [--web-dist dist]
// --web-dist serves the web app from another build (an older commit's, say) to the same server and data.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { findChromium } from '../scripts/lib/chromium.mjs';
import { startThrowawayPostgres } from '../scripts/lib/throwaway-postgres.mjs';
import { startOrganisation } from './support/organisation.mjs';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
    'web-dist': { type: 'string' },
    database: { type: 'string' },
    postgres: { type: 'boolean', default: false },
  },
});
const postgres = values.postgres ? await startThrowawayPostgres() : undefined;
const database = values.database ?? postgres?.url;
const userCount = Number(values.users);
const rounds = Number(values.rounds);

/** In the page: the time from navigation to the first user row painted, and helpers to time one interaction. */
const probe = () => {
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  window.__firstRows = new Promise((resolve) => {
    const seen = () => document.querySelector('tbody tr td[data-label]');
    new MutationObserver((_changes, observer) => {
      if (!seen()) return;
      observer.disconnect();
      void painted().then(() => resolve(performance.now()));
    }).observe(document, { childList: true, subtree: true });
  });
  /** Resolves with the milliseconds from the next `type` event (its time stamp) to the frame painted after it. */
  window.__timeNext = (type) => {
    window.__timed = new Promise((resolve) => {
      const listener = (event) => {
        const start = event.timeStamp;
        void painted().then(() => resolve(performance.now() - start));
      };
      document.addEventListener(type, listener, { capture: true, once: true });
    });
  };
  /**
   * Resolves with the milliseconds from the next `type` event to the frame painted with the server's answer: after
   * the table's rows change (a search), or after the table is no longer busy (an order, whose first page may look the
   * same); fails after five seconds.
   */
  window.__timeRows = (type, busy) => {
    window.__timed = new Promise((resolve, reject) => {
      const listener = (event) => {
        const start = event.timeStamp;
        const table = document.querySelector('table');
        const give = setTimeout(() => reject(new Error(`no answer shown after ${type}`)), 5_000);
        const done = () => {
          clearTimeout(give);
          void painted().then(() => resolve(performance.now() - start));
        };
        if (busy) {
          // An order asked before is shown at once from the browser's cache: nothing is busy then.
          void painted().then(() => {
            if (!table.hasAttribute('aria-busy')) return done();
            new MutationObserver((_changes, observer) => {
              if (table.hasAttribute('aria-busy')) return;
              observer.disconnect();
              done();
            }).observe(table, { attributes: true, attributeFilter: ['aria-busy'] });
          });
          return;
        }
        new MutationObserver((_changes, observer) => {
          observer.disconnect();
          done();
        }).observe(table.querySelector('tbody'), { childList: true, subtree: true, characterData: true });
      };
      document.addEventListener(type, listener, { capture: true, once: true });
    });
  };
};

async function timed(page, type, act, until = 'frame') {
  await page.evaluate(
    ([name, rows]) => (rows ? window.__timeRows(name) : window.__timeNext(name)),
    [type, until === 'rows'],
  );
  await act();
  return page.evaluate(() => window.__timed);
}

const text = (page, selector) => page.locator(selector).first().textContent();

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)], max: sorted[sorted.length - 1], n: sorted.length };
}

/** Answers the web app's own requests (the page and its assets) from another build's folder. */
async function serveFrom(context, dist) {
  const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };
  await context.route(
    (url) => url.pathname.startsWith('/assets/') || url.pathname === '/',
    (route) => {
      const { pathname } = new URL(route.request().url());
      const file = pathname === '/' ? 'index.html' : pathname.slice(1);
      const body = readFileSync(path.join(dist, file));
      return route.fulfill({ body, contentType: types[path.extname(file)] ?? 'application/octet-stream' });
    },
  );
}

const organisation = await startOrganisation({ users: userCount, database });
const browser = await chromium.launch({
  executablePath: findChromium(),
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
try {
  const context = await browser.newContext({ locale: 'nl-NL', viewport: { width: 1280, height: 900 } });
  const url = new URL(organisation.publicUrl);
  await context.addCookies(
    organisation.jar.getCookiesSync(organisation.publicUrl).map((cookie) => ({
      name: cookie.key,
      value: cookie.value,
      domain: url.hostname,
      path: cookie.path ?? '/',
    })),
  );
  if (values['web-dist']) await serveFrom(context, path.resolve(values['web-dist']));
  await context.addInitScript(probe);
  const page = await context.newPage();
  const times = { first: [], asked: [], api: [], search: [], found: [], clear: [], sort: [] };
  for (let round = 0; round < rounds; round += 1) {
    await page.goto(`${organisation.publicUrl}/`);
    times.first.push(await page.evaluate(() => window.__firstRows));
    const list = await page.evaluate(() => {
      const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/users?'));
      return { asked: entry?.startTime, answered: entry?.responseEnd };
    });
    times.asked.push(list.asked);
    times.api.push(list.answered);
    const search = page.locator('#zoek');
    await search.focus();
    // '4' leaves about a third of the users, '42' about one in thirty; then back to all of them. Each key is timed
    // to the next frame (the field answers) and, once more, to the rows found (the server's answer painted).
    for (const key of ['4', '2']) {
      times.search.push(await timed(page, 'input', () => page.keyboard.press(key)));
      await page.keyboard.press('Backspace');
      await page.waitForTimeout(400);
      times.found.push(await timed(page, 'input', () => page.keyboard.press(key), 'rows'));
    }
    // Screen readers hear the count once the typing pauses (500 ms).
    const found = page.locator('p[role="status"]', { hasText: /gebruikers? gevonden/ });
    await found.waitFor({ timeout: 5_000 }).catch(() => {
      throw new Error('the search found nothing');
    });
    for (let i = 0; i < 2; i += 1)
      times.clear.push(await timed(page, 'input', () => page.keyboard.press('Backspace'), 'rows'));
    const first = await text(page, 'tbody tr td');
    for (const key of ['name', 'email', 'created', 'type']) {
      times.sort.push(await timed(page, 'change', () => page.selectOption('#sorteer', key), 'busy'));
    }
    if ((await text(page, 'tbody tr td')) !== first) throw new Error('the default order did not come back');
  }
  const rows = await page.locator('tbody tr').count();
  console.log(`\n${userCount} users, ${rows} rows in the table, ${rounds} rounds, Chromium ${browser.version()}`);
  console.log('\n| step | samples | median ms | max ms |\n|---|---|---|---|');
  const line = (label, samples) => {
    const { median, max, n } = summary(samples);
    console.log(`| ${label} | ${n} | ${median.toFixed(0)} | ${max.toFixed(0)} |`);
  };
  line('GET /api/users?page=1 asked (from navigation)', times.asked);
  line('GET /api/users?page=1 answered (from navigation)', times.api);
  line('first rows painted (from navigation)', times.first);
  line("search keystroke ('4', '2') to the next frame", times.search);
  line("search keystroke ('4', '2') to the rows found", times.found);
  line('search cleared (Backspace) to the rows', times.clear);
  line('sort change (each of the four orders; the default one shown before) to the rows', times.sort);
  console.log(`\n(${database ? 'PostgreSQL' : 'SQLite'})`);
} finally {
  await browser.close();
  await organisation.stop();
  await postgres?.stop();
}
