import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { backdrop, contrast, parseColour } from './contrast.js';

/** What WCAG 2.4.7 and 1.4.11 ask of a focus indicator here: at least 2 px thick, 3:1 against what is behind it. */
const MIN_WIDTH = 2;
const MIN_CONTRAST = 3;

interface Ring {
  label: string;
  focusVisible: boolean;
  width: number;
  colour: string;
  behind: string[];
}

/** The focused element's ring: its outline, else the spread of its box-shadow, and the backgrounds behind that. */
const ringOfFocus = (page: Page) =>
  page.evaluate((): Ring | undefined => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return undefined;
    const style = getComputedStyle(element);
    const labelled = (element as HTMLInputElement).labels?.[0]?.textContent;
    const name = (element.getAttribute('aria-label') || labelled || element.textContent || element.id || '').trim();
    const label = `<${element.tagName.toLowerCase()}> '${name.slice(0, 40)}'`;
    let width = style.outlineStyle === 'none' ? 0 : Number.parseFloat(style.outlineWidth);
    let colour = style.outlineColor;
    let offset = Number.parseFloat(style.outlineOffset);
    const shadow = /^(rgba?\([^)]*\)) (-?[\d.]+)px (-?[\d.]+)px ([\d.]+)px ([\d.]+)px$/.exec(style.boxShadow);
    if (width === 0 && shadow) {
      width = Number.parseFloat(shadow[5] ?? '0');
      colour = shadow[1] ?? '';
      offset = 0;
    }
    // What is painted where the ring lies: the element itself for a ring inside it, else what the page shows at
    // the middle of the ring's left (or right, top, bottom) side, the element and its content left out.
    const box = element.getBoundingClientRect();
    const out = offset + width / 2;
    const points = [
      [box.left - out, box.top + box.height / 2],
      [box.right + out, box.top + box.height / 2],
      [box.left + box.width / 2, box.top - out],
      [box.left + box.width / 2, box.bottom + out],
    ].filter(([x, y]) => x! >= 0 && y! >= 0 && x! < window.innerWidth && y! < window.innerHeight);
    const [x, y] = points[0] ?? [0, 0];
    const around = document.elementsFromPoint(x!, y!).find((hit) => hit !== element && !element.contains(hit));
    const from: Element | null = offset < 0 ? element : (around ?? element.parentElement);
    const behind: string[] = [];
    for (let layer = from; layer; layer = layer.parentElement) behind.push(getComputedStyle(layer).backgroundColor);
    return { label, focusVisible: element.matches(':focus-visible'), width, colour, behind };
  });

/**
 * Tabs through the whole page from its top (or through an open dialog) and checks, for every element that gets the
 * focus, that it shows a focus ring of at least 2 px whose colour has 3:1 against the background behind it (WCAG
 * 2.4.7, and 1.4.11 for the indicator). Returns the elements passed.
 */
export async function expectFocusVisible(page: Page, state: string): Promise<string[]> {
  // Outside a dialog, the next Tab starts at the top: a blur alone would leave it where the focus was.
  await page.evaluate(() => {
    if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
    const start = document.createElement('span');
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
    start.remove();
  });
  const passed: string[] = [];
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press('Tab');
    const ring = await ringOfFocus(page);
    if (!ring || passed.includes(ring.label)) break;
    passed.push(ring.label);
    const where = `${ring.label} with the focus on ${state}`;
    expect(ring.focusVisible, `:focus-visible on ${where}`).toBe(true);
    expect(ring.width, `thickness of the focus ring of ${where}`).toBeGreaterThanOrEqual(MIN_WIDTH);
    const ratio = contrast(parseColour(ring.colour), backdrop(ring.behind));
    expect(ratio, `contrast of the focus ring (${ring.colour}) of ${where}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
  }
  expect(passed.length, `nothing to tab to on ${state}`).toBeGreaterThan(1);
  return passed;
}
