import axe, { type AxeResults, type RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The WCAG 2.0–2.2 rules of levels A and AA. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

type AxeWindow = Window & { axe?: typeof axe };

/**
 * axe-core's rules run in the page as it is now: all rules with one of `tags`, or only the rules named.
 *
 * axe is put into a document once and used for every later check of it: the web app changes screens, and dialogs
 * open, without a new document. @axe-core/playwright evaluated axe's 560 kB source twice for each check, about 70 ms
 * of the page's CPU each time, where the check itself takes about 60 ms (measured on the sign-in screen). axe runs in
 * the page itself, so frames would go unchecked: the portal's pages have none, and this says so when one does.
 */
export async function runAxe(
  page: Page,
  state: string,
  only: { tags: string[] } | { rules: string[] },
): Promise<AxeResults> {
  expect(page.frames(), `frames on ${state}, which axe in the page does not look into`).toHaveLength(1);
  const present = await page.evaluate(() => typeof (window as AxeWindow).axe?.run === 'function');
  if (!present) await page.evaluate(axe.source);
  const options: RunOptions = {
    runOnly: 'tags' in only ? { type: 'tag', values: only.tags } : { type: 'rule', values: only.rules },
  };
  return page.evaluate((given) => (window as AxeWindow).axe!.run(document, given), options);
}
