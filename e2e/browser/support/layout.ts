import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectAccessible } from './pages.js';

/** The widths every screen is checked at: the WCAG reflow width, two phones, the sidebar's breakpoint, a laptop. */
export const WIDTHS = [320, 375, 480, 940, 1280] as const;

/** The window for one of the widths: 800 px high below the laptop widths, 900 px from them. */
export const sizeOf = (width: number) => ({ width, height: width < 940 ? 800 : 900 });

/** Opens a screen of the portal and waits until it is ready to look at. */
export async function visit(page: Page, path: string, ready: string | RegExp) {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: ready }).waitFor();
  await page.waitForLoadState('networkidle');
}

/** The room every control keeps from the edges of the window. */
const MARGIN = 4;

/** No sideways scrolling (WCAG 1.4.10 reflow): the page is no wider than the window. */
export async function expectNoSidewaysScroll(page: Page, state: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `sideways scrolling on ${state}`).toBeLessThanOrEqual(clientWidth);
}

/**
 * Each element `locator` finds lies wholly inside the window, `MARGIN` pixels from its left and right edges, and (when
 * `vertically`) from its top and bottom: what a person sees without scrolling sideways.
 */
export async function expectInsideWindow(page: Page, locator: Locator, state: string, vertically = false) {
  const size = page.viewportSize()!;
  const boxes = await locator.evaluateAll((elements) =>
    elements
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name = (element.getAttribute('aria-label') ?? element.textContent ?? element.tagName).trim();
        return { name: name.slice(0, 40), left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      }),
  );
  expect(boxes.length, `nothing to check on ${state}`).toBeGreaterThan(0);
  for (const box of boxes) {
    const where = `'${box.name}' on ${state} at ${size.width} px: ${JSON.stringify(box)}`;
    expect(box.left, where).toBeGreaterThanOrEqual(MARGIN - 0.5);
    expect(box.right, where).toBeLessThanOrEqual(size.width - MARGIN + 0.5);
    if (vertically) {
      expect(box.top, where).toBeGreaterThanOrEqual(0);
      expect(box.bottom, where).toBeLessThanOrEqual(size.height);
    }
  }
}

/** The menu of the sidebar layout: the sidebar's links, on a narrow screen behind the 'Menu' button. */
export const menuAt = (page: Page) => page.getByRole('navigation', { name: 'Hoofdmenu' });

/** The 'Menu' button of a narrow screen (under 768 px), which opens the sidebar's links and addresses. */
const menuButton = (page: Page) =>
  page.getByRole('complementary', { name: 'Account' }).getByRole('button', { name: 'Menu' });

/** On a narrow screen: presses 'Menu' unless the menu is open already; on a wide one nothing (the menu shows). */
export async function openMenu(page: Page) {
  if (page.viewportSize()!.width >= 768) return;
  const button = menuButton(page);
  if ((await button.getAttribute('aria-expanded')) === 'true') return;
  await button.click();
  expect(await button.getAttribute('aria-expanded')).toBe('true');
}

/**
 * The menu's links all in the window (on a narrow screen, once 'Menu' is pressed, without scrolling at all, each the
 * whole width and at least 44 px high, as the button is), and 'Uitloggen' among them, ready to be clicked: visible,
 * enabled and not covered by anything else.
 */
export async function expectMenuUsable(page: Page, state: string) {
  const narrow = page.viewportSize()!.width < 768;
  if (narrow) {
    const button = await menuButton(page).boundingBox();
    expect(button?.height, `height of 'Menu' on ${state}`).toBeGreaterThanOrEqual(44);
    await openMenu(page);
  }
  const menu = menuAt(page);
  await menu.waitFor();
  await expectInsideWindow(page, menu.getByRole('link'), `${state} (menu)`, narrow);
  if (narrow) {
    const boxes = await menu
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getBoundingClientRect()));
    const width = (await menu.boundingBox())!.width;
    for (const box of boxes) {
      expect(box.height, `height of a menu link on ${state}`).toBeGreaterThanOrEqual(44);
      expect(box.width, `width of a menu link on ${state}`).toBeGreaterThanOrEqual(width - 1);
    }
  }
  await menu.getByRole('link', { name: 'Uitloggen', exact: true }).click({ trial: true, timeout: 5_000 });
}

/** Headings keep a line height of at least 1.2 times their size (a heading that wraps does not overlap itself). */
async function expectReadableHeadings(page: Page, state: string) {
  const headings = await page.evaluate(() =>
    Array.from(document.querySelectorAll('h1, h2, h3'))
      .filter((heading) => heading.getClientRects().length > 0)
      .map((heading) => {
        const style = getComputedStyle(heading);
        return {
          text: (heading.textContent ?? '').slice(0, 40),
          ratio: Number.parseFloat(style.lineHeight) / Number.parseFloat(style.fontSize),
          overflows: heading.scrollWidth > heading.clientWidth + 1,
        };
      }),
  );
  for (const heading of headings) {
    expect(heading.ratio, `line height of '${heading.text}' on ${state}`).toBeGreaterThanOrEqual(1.2);
    expect(heading.overflows, `'${heading.text}' wider than its box on ${state}`).toBe(false);
  }
}

/**
 * A screen as it should be at every width: the programme's name in the header, no sideways scrolling, readable
 * headings, every field, button and link of the content inside the window; and no axe violations.
 */
export async function expectScreenFits(page: Page, state: string) {
  const where = `${state} at ${page.viewportSize()!.width} px`;
  await page.getByRole('banner').getByText('Datavoorzieningen VNG', { exact: true }).waitFor();
  await expectNoSidewaysScroll(page, where);
  await expectReadableHeadings(page, where);
  await expectInsideWindow(
    page,
    page.getByRole('main').locator('input:not([type="hidden"]), select, button, a, h1'),
    where,
  );
  await expectAccessible(page, where);
}

/** An open dialog: the box inside the window, every control in it inside the window's width, and no axe violations. */
export async function expectDialogFits(page: Page, dialog: Locator, state: string) {
  const where = `${state} at ${page.viewportSize()!.width} px`;
  await dialog.waitFor();
  await expectNoSidewaysScroll(page, where);
  await expectInsideWindow(page, page.locator('.dvp-modal'), `${where} (the dialog)`, true);
  await expectInsideWindow(page, dialog.locator('input, select, button, a, legend, h2'), where);
  await expectAccessible(page, where);
}

/** Checks `check` with the window 375 px (a phone) and 1280 px (a laptop) wide. */
export async function atBothWidths(page: Page, check: () => Promise<void>) {
  const { height } = page.viewportSize()!;
  for (const width of [375, 1280]) {
    await resizeTo(page, { width, height });
    await check();
  }
}

/**
 * A new window size, once the browser has painted a frame at it: layouts decided by a ResizeObserver (a table shown as
 * cards) are made in the frame after a resize, before it is painted, so a person never sees the one before; a check
 * made straight after `setViewportSize` could (journey 16 once measured the table's row actions at 375 px).
 */
export async function resizeTo(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * A page the server renders outside the web app (the provider's questions and refusals, forward authentication's
 * refusal) or a service's own error page, at both widths: Dutch, no sideways scrolling, every control inside the
 * window, no axe violations.
 */
export const expectPlainPageFits = (page: Page, state: string) =>
  atBothWidths(page, async () => {
    const where = `${state} at ${page.viewportSize()!.width} px`;
    expect(await page.locator('html').getAttribute('lang'), `language of ${state}`).toBe('nl');
    await expectNoSidewaysScroll(page, where);
    await expectInsideWindow(page, page.locator('main').locator('h1, button, a, summary'), where);
    await expectAccessible(page, where);
  });
