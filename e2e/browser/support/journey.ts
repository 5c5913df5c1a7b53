import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startPortaal, type Portaal, type PortaalOptions } from '../../support/portaal.js';
import { launchChromium } from './chromium.js';

/** Where a failing journey leaves its screenshots and console logs; scripts/browser-journeys.mjs prints it. */
const ARTEFACTS_DIR = fileURLToPath(new URL('../../../test-results/browser/', import.meta.url));

interface OpenPage {
  page: Page;
  label: string;
  log: string[];
}

export interface Journey {
  readonly portaal: Portaal;
  /**
   * A fresh browser profile (its own cookies and storage) with one page; closed after the test. `baseURL`: another
   * address of the portal than `portaal.publicUrl` (`localhost` where WebAuthn needs a host name).
   */
  person(
    label?: string,
    options?: { width?: number; height?: number; userAgent?: string; baseURL?: string },
  ): Promise<Page>;
}

/**
 * One `portaal` process with a fresh database and an SMTP sink, and one Chromium, for the journeys of a file. Each
 * test opens its own browser profiles; when a test fails, every page it opened is photographed and its console log
 * written to ARTEFACTS_DIR before the profiles are closed.
 */
export function useJourney(options: PortaalOptions = {}): Journey {
  let portaal: Portaal | undefined;
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];
  let pages: OpenPage[] = [];

  beforeAll(async () => {
    [portaal, browser] = await Promise.all([startPortaal(options), launchChromium()]);
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' || (task.result?.errors?.length ?? 0) > 0) {
      const folder = path.join(ARTEFACTS_DIR, slug(`${path.basename(task.file?.name ?? 'journey')}-${task.name}`));
      mkdirSync(folder, { recursive: true });
      for (const [index, open] of pages.entries()) {
        const name = `${index + 1}-${slug(open.label)}`;
        await open.page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true }).catch(() => undefined);
        writeFileSync(path.join(folder, `${name}.console.log`), `${open.page.url()}\n\n${open.log.join('\n')}\n`);
      }
      if (portaal) writeFileSync(path.join(folder, 'portaal.log'), portaal.output());
    }
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    contexts = [];
    pages = [];
  });

  afterAll(async () => {
    await browser?.close();
    await portaal?.stop();
  });

  return {
    get portaal() {
      if (!portaal) throw new Error('the journey has not started');
      return portaal;
    },
    async person(label = 'persoon', size = {}) {
      if (!browser || !portaal) throw new Error('the journey has not started');
      const context = await browser.newContext({
        baseURL: size.baseURL ?? portaal.publicUrl,
        locale: 'nl-NL',
        viewport: { width: size.width ?? 1280, height: size.height ?? 900 },
        ...(size.userAgent ? { userAgent: size.userAgent } : {}),
      });
      contexts.push(context);
      const page = await context.newPage();
      const log: string[] = [];
      page.on('console', (message) => log.push(`[${message.type()}] ${message.text()}`));
      page.on('pageerror', (error) => log.push(`[pageerror] ${error.stack ?? error.message}`));
      page.on('requestfailed', (request) =>
        log.push(`[requestfailed] ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`),
      );
      pages.push({ page, label, log });
      return page;
    },
  };
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
