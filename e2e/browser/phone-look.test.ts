import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runAxe } from './support/axe.js';
import { useJourney } from './support/journey.js';
import {
  expectMenuUsable,
  expectNoSidewaysScroll,
  expectScreenFits,
  menuAt,
  openMenu,
  resizeTo,
  sizeOf,
  visit,
} from './support/layout.js';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  enterTotpCode,
  expectAccessible,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';

const journey = useJourney();
const PHONE = { width: 375, height: 667 };
const SMALL_PHONE = { width: 320, height: 568 };

/**
 * The landmarks a person finds: one banner, main and contentinfo, the sidebar's and the menu's names as given, and
 * axe's rules that each landmark be unique and all content be inside one.
 */
async function expectLandmarks(page: Page, state: string, sidebars: string[], menus: string[]) {
  const names = (role: 'complementary' | 'navigation' | 'region') =>
    page.getByRole(role).evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')));
  expect(await names('complementary'), `sidebars on ${state}`).toEqual(sidebars);
  expect(await names('navigation'), `menus on ${state}`).toEqual(menus);
  for (const role of ['banner', 'main', 'contentinfo'] as const) expect(await page.getByRole(role).count()).toBe(1);
  const result = await runAxe(page, state, { rules: ['landmark-unique', 'region'] });
  expect(result.passes.map((rule) => rule.id).sort(), `landmark rules on ${state}`).toEqual([
    'landmark-unique',
    'region',
  ]);
  expect(result.violations, `landmark rules on ${state}`).toEqual([]);
}

describe('journey 14b: the look on a 320 and a 375 px wide phone', () => {
  it('starts the content in the top third, under a Menu button, each landmark with a name of its own', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { first: 'Ravi' });
    const page = await journey.person('telefoon', PHONE);
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!);
    await page.waitForURL((url) => url.pathname === '/permissies');
    await page.getByRole('heading', { level: 1, name: 'Datavoorzieningen' }).waitFor();
    await page.waitForLoadState('networkidle');

    for (const size of [SMALL_PHONE, PHONE]) {
      await resizeTo(page, size);
      const where = `data services of a colleague at ${size.width} x ${size.height}`;
      const main = await page.getByRole('main').boundingBox();
      expect(main!.y, `top of the main content on ${where}`).toBeLessThanOrEqual(size.height / 3);
      await expectLandmarks(page, `${where}, menu closed`, ['Account'], []);
      // The menu is closed: only the button shows of it, beside the person's name.
      const button = page.getByRole('complementary', { name: 'Account' }).getByRole('button', { name: 'Menu' });
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      expect(await menuAt(page).isVisible()).toBe(false);
      await expectMenuUsable(page, where);
      expect(await menuAt(page).getByRole('link').allInnerTexts()).toEqual([
        'Datavoorzieningen',
        'Account instellingen',
        'Uitloggen',
      ]);
      await expectLandmarks(page, `${where}, menu open`, ['Account'], ['Hoofdmenu']);
      await expectNoSidewaysScroll(page, where);
      await expectAccessible(page, `${where}, menu open`);
      await page.keyboard.press('Escape');
      expect(await button.getAttribute('aria-expanded')).toBe('false');
    }
    // The menu closes on the page it leads to.
    await openMenu(page);
    await menuAt(page).getByRole('link', { name: 'Account instellingen' }).click();
    await page.getByLabel('Achternaam').waitFor();
    expect(await menuAt(page).isVisible()).toBe(false);
  });

  it('shows the progress steps on one line, or as Stap N van M on a phone', async () => {
    const page = await journey.person('herstel');
    for (const width of [320, 375, 1280]) {
      await resizeTo(page, sizeOf(width));
      await visit(page, '/recovery', 'Herstel je wachtwoord');
      const steps = page.getByRole('list', { name: 'Voortgang' }).getByRole('listitem');
      const shown = await steps.evaluateAll((items) =>
        items
          .filter((item) => item.getBoundingClientRect().height > 1)
          .map((item) => ({ top: Math.round(item.getBoundingClientRect().top), text: item.textContent })),
      );
      expect(await steps.count()).toBe(4);
      if (shown.length === 1) {
        const count = await page
          .locator('.dvp-step--current .dvp-step__name')
          .evaluate((name) => getComputedStyle(name, '::before').content);
        expect(count, `the step at ${width} px`).toContain('Stap 1 van 4: ');
      } else {
        expect(shown.length, `steps at ${width} px`).toBe(4);
        expect(new Set(shown.map((step) => step.top)).size, `steps on one line at ${width} px`).toBe(1);
      }
      if (width < 400) expect(shown.length, `steps at ${width} px`).toBe(1);
      await expectScreenFits(page, `recovery with its steps`);
    }
  });

  it('gives selects, buttons (also disabled), row actions and the data-roles box the NL Design look', async () => {
    const { page } = await signInAsAdministrator(journey);
    const look = await page.evaluate(() => {
      const style = (element: Element | null) => (element ? getComputedStyle(element) : undefined);
      const select = style(document.querySelector('select'));
      const action = style(document.querySelector('td .utrecht-button'));
      // A disabled copy of the primary button, to see what a disabled button looks like.
      const primary = document.querySelector('.utrecht-button--primary-action')!;
      const disabled = primary.cloneNode(true) as HTMLButtonElement;
      disabled.disabled = true;
      primary.after(disabled);
      const off = style(disabled);
      const result = {
        selectArrow: select?.backgroundImage ?? '',
        actionBackground: action?.backgroundColor,
        actionBorder: action?.borderTopWidth,
        disabledBackground: off?.backgroundColor,
        disabledBorder: off?.borderTopStyle,
        disabledCursor: off?.cursor,
      };
      disabled.remove();
      return result;
    });
    expect(look.selectArrow).toContain('svg');
    expect(look.actionBackground).not.toBe('rgba(0, 0, 0, 0)');
    expect(look.actionBorder).toBe('1px');
    expect(look.disabledBackground).not.toBe('rgba(0, 0, 0, 0)');
    expect(look.disabledBorder).toBe('solid');
    expect(look.disabledCursor).toBe('not-allowed');
    await page.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
    const roles = page.getByRole('group', { name: 'Datarollen' });
    const box = await roles.evaluate((element) => {
      const style = getComputedStyle(element);
      return { border: style.borderTopStyle, radius: style.borderTopLeftRadius };
    });
    expect(box).toEqual({ border: 'solid', radius: '8px' });
  });
});
