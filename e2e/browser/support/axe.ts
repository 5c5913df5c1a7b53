import axe, { type ImpactValue, type RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The WCAG 2.0–2.2 rules of levels A and AA. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

type AxeWindow = Window & { axe?: typeof axe };

/** What the checks read of axe's answer: each violation with its elements, and the names of the rules passed. */
interface AxeFindings {
  violations: { id: string; impact?: ImpactValue | null; nodes: { target: unknown[]; html: string }[] }[];
  passes: { id: string }[];
}

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
): Promise<AxeFindings> {
  expect(page.frames(), `frames on ${state}, which axe in the page does not look into`).toHaveLength(1);
  const present = await page.evaluate(() => typeof (window as AxeWindow).axe?.run === 'function');
  if (!present) await page.evaluate(axe.source);
  const options: RunOptions = {
    runOnly: 'tags' in only ? { type: 'tag', values: only.tags } : { type: 'rule', values: only.rules },
    // The elements of passed and inapplicable rules are not collected, and only what the checks read leaves the page:
    // axe's whole answer cost the test process 50-100 ms of CPU a check to receive, the page 20 ms more to collect.
    resultTypes: ['violations'],
  };
  return page.evaluate(async (given) => {
    const { violations, passes } = await (window as AxeWindow).axe!.run(document, given);
    return {
      violations: violations.map(({ id, impact, nodes }) => ({
        id,
        impact,
        nodes: nodes.map(({ target, html }) => ({ target: [...target], html })),
      })),
      passes: passes.map(({ id }) => ({ id })),
    };
  }, options);
}
