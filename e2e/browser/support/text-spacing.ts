import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoSidewaysScroll } from './layout.js';

/** The style of WCAG's text-spacing bookmarklet: the least spacing 1.4.12 says a person may set. */
const TEXT_SPACING = `
  * { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
  p { margin-bottom: 2em !important; }
`;

/** Blocks whose text is cut off: content larger than the box, where the box hides what sticks out. */
const clippedText = (page: Page) =>
  page.evaluate(() => {
    const clipping = (value: string) => value === 'hidden' || value === 'clip';
    const found: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      if (element.getClientRects().length === 0 || !element.innerText?.trim()) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      // Text for screen readers only: hidden on purpose, in a box of 1 px.
      if (box.width <= 1 || box.height <= 1) continue;
      const wide = clipping(style.overflowX) && element.scrollWidth > element.clientWidth + 1;
      const tall = clipping(style.overflowY) && element.scrollHeight > element.clientHeight + 1;
      const ellipsis = style.textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth + 1;
      if (wide || tall || ellipsis)
        found.push(`<${element.tagName.toLowerCase()}> '${element.innerText.slice(0, 40)}'`);
    }
    return found;
  });

/**
 * WCAG 1.4.12: with the bookmarklet's spacing, no text is cut off, the page does not scroll sideways and every
 * control of the content stays inside the window. The style is removed afterwards.
 */
export async function expectTextSpacingKeepsAll(page: Page, state: string) {
  const where = `${state} with WCAG text spacing`;
  const style = await page.addStyleTag({ content: TEXT_SPACING });
  expect(await clippedText(page), `text cut off on ${where}`).toEqual([]);
  await expectNoSidewaysScroll(page, where);
  // A wide table scrolls in its own box (WCAG 1.4.10 lets data tables scroll): its controls are reached there.
  const outside = await page
    .locator('main, [role="dialog"], [role="alertdialog"]')
    .locator('input:not([type="hidden"]), select, button, a')
    .evaluateAll((elements) =>
      elements
        .filter((element) => element.getClientRects().length > 0)
        .filter((element) => {
          for (let box = element.parentElement; box; box = box.parentElement) {
            if (['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) return false;
          }
          const { left, right } = element.getBoundingClientRect();
          return left < -0.5 || right > document.documentElement.clientWidth + 0.5;
        })
        .map((element) => `<${element.tagName.toLowerCase()}> '${(element.textContent ?? '').trim().slice(0, 40)}'`),
    );
  expect(outside, `controls outside the window on ${where}`).toEqual([]);
  await style.evaluate((element) => (element as Element).remove());
}
