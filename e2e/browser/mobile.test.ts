import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useJourney } from './support/journey.js';
import {
  expectDialogFits,
  expectInsideWindow,
  expectMenuUsable,
  expectNoSidewaysScroll,
  expectScreenFits,
  menuAt,
  openMenu,
  WIDTHS,
} from './support/layout.js';
import AxeBuilder from '@axe-core/playwright';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  enterTotpCode,
  expectAccessible,
  rowOf,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';

const journey = useJourney();
const PHONE = { width: 375, height: 667 };
const SMALL_PHONE = { width: 320, height: 568 };
const sizeOf = (width: number) => ({ width, height: width < 940 ? 800 : 900 });

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
  const result = await new AxeBuilder({ page }).withRules(['landmark-unique', 'region']).analyze();
  expect(result.passes.map((rule) => rule.id).sort(), `landmark rules on ${state}`).toEqual([
    'landmark-unique',
    'region',
  ]);
  expect(result.violations, `landmark rules on ${state}`).toEqual([]);
}

/** Opens a screen of the portal and waits until it is ready to look at. */
async function visit(page: Page, path: string, ready: string | RegExp) {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: ready }).waitFor();
  await page.waitForLoadState('networkidle');
}

describe('journey 14: every screen and dialog at 320, 375, 480, 940 and 1280 px', () => {
  it('fits the screens for signing in, recovery, verification and errors', async () => {
    const page = await journey.person('zonder account');
    for (const width of WIDTHS) {
      await page.setViewportSize(sizeOf(width));
      await visit(page, '/login', 'Welkom');
      await page.getByLabel('E-mailadres').waitFor();
      await expectScreenFits(page, 'sign-in');
      await visit(page, '/recovery', 'Herstel je wachtwoord');
      await expectScreenFits(page, 'recovery');
      await visit(page, '/verification', 'Verifieer je account');
      await page.getByLabel('E-mailadres').waitFor();
      await expectScreenFits(page, 'verification');
      await visit(page, '/error', 'Er is een fout opgetreden');
      await expectScreenFits(page, 'error page');
      await visit(page, '/bestaat-niet', 'Pagina niet gevonden');
      await expectScreenFits(page, 'unknown page');
      await visit(page, '/toegankelijkheid', /^Toegankelijkheids\u00ad?verklaring$/);
      await expectScreenFits(page, 'accessibility statement');
    }
    // Without a statement of the organisation's own, the footer leads to the portal's draft.
    await visit(page, '/login', 'Welkom');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Toegankelijkheid' }).click();
    await page.getByRole('heading', { level: 2, name: 'Wat nog niet goed is' }).waitFor();
    // Any path with 'admin' in it is the administrators' sign-in; a settings form that does not exist, without a
    // session, leads to signing in, not to the recovery.
    await visit(page, '/beheer/admin', 'Welkom');
    await page.getByText('Hier kunt u inloggen voor het Administrator dashboard.').waitFor();
    await page.goto('/settings?flow=bestaat-niet');
    await page.waitForURL((url) => url.pathname === '/login');
  }, 240_000);

  it('keeps the footer where it is while the forms without a session load (no layout shift)', async () => {
    const page = await journey.person('zonder account');
    for (const width of [375, 1280]) {
      await page.setViewportSize(sizeOf(width));
      for (const [path, heading] of [
        ['/login', 'Welkom'],
        ['/recovery', 'Herstel je wachtwoord'],
        ['/verification', 'Verifieer je account'],
      ] as const) {
        await visit(page, path, heading);
        await page.getByLabel('E-mailadres').waitFor();
        // Every shift since the page began loading, with the elements that moved.
        const moved = await page.evaluate(
          () =>
            new Promise<string[]>((resolve) => {
              const names: string[] = [];
              new PerformanceObserver((list) => {
                for (const entry of list.getEntries() as (PerformanceEntry & { sources?: { node?: Node }[] })[]) {
                  for (const source of entry.sources ?? []) names.push(source.node?.nodeName ?? '?');
                }
              }).observe({ type: 'layout-shift', buffered: true });
              setTimeout(() => resolve(names), 200);
            }),
        );
        expect(moved, `${path} at ${width} px`).not.toContain('FOOTER');
      }
    }
  });

  it('fits the second step of signing in and the authenticator app, with a way out', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const withApp = await createColleague(journey, { first: 'Tess' });
    const withoutApp = await createColleague(journey, { first: 'Nout', withApp: false });
    const page = await journey.person('tweede stap');
    await signInWithPassword(page, withApp.email, withApp.password);
    await page.getByLabel('Verificatiecode').waitFor();
    const newcomer = await journey.person('authenticator-app');
    await signInWithPassword(newcomer, withoutApp.email, withoutApp.password);
    await newcomer.waitForURL((url) => url.pathname === '/settings/2fa-app');
    await newcomer.getByLabel('Code controleren').waitFor();
    // The way out while an app must be linked first: signing out.
    const wayOut = newcomer.getByRole('navigation', { name: 'Verlaten' }).getByRole('link', { name: 'Uitloggen' });
    for (const width of WIDTHS) {
      await page.setViewportSize(sizeOf(width));
      await expectScreenFits(page, 'second step of sign-in');
      await page.getByRole('link', { name: 'Uitloggen', exact: true }).click({ trial: true });
      await newcomer.setViewportSize(sizeOf(width));
      await expectScreenFits(newcomer, 'authenticator app');
      await wayOut.click({ trial: true });
    }
    await wayOut.click();
    await newcomer.waitForURL((url) => url.pathname === '/login');
  }, 240_000);

  it('lets an administrator use the overview with each dialog, every screen and Uitloggen', async () => {
    const admin = await signInAsAdministrator(journey);
    const page = admin.page;
    const active = await createColleague(journey, { first: 'Rosa' });
    const blocked = await createColleague(journey, { first: 'Bram', withApp: false });
    await page.reload();
    await rowOf(page, blocked.email).getByRole('button', { name: 'Blokkeer' }).click();
    await page
      .getByRole('alertdialog', { name: 'Gebruiker blokkeren' })
      .getByRole('button', { name: 'Blokkeren' })
      .click();
    await rowOf(page, blocked.email).getByRole('button', { name: 'Deblokkeer' }).waitFor();

    for (const width of WIDTHS) {
      await page.setViewportSize(sizeOf(width));
      await page.goto('/');
      await rowOf(page, blocked.email).waitFor();
      await page.waitForLoadState('networkidle');
      await openMenu(page);
      expect(await menuAt(page).getByRole('link').allInnerTexts()).toEqual([
        'Administratie dashboard',
        'Datavoorzieningen',
        'Account instellingen',
        'Uitloggen',
      ]);
      await expectMenuUsable(page, 'overview');
      await expectScreenFits(page, 'overview');
      await expectInsideWindow(page, page.getByRole('cell'), `overview at ${width} px`);

      await page.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
      const create = page.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
      await expectDialogFits(page, create, 'new-user dialog');
      // Small margins on a small screen: at least 280 px of form at 320 px.
      const form = await create.getByLabel('E-mailadres').boundingBox();
      expect(form!.width, `new-user form at ${width} px`).toBeGreaterThanOrEqual(Math.min(280, width - 40));
      await create.getByRole('button', { name: 'Annuleren' }).click();
      await create.waitFor({ state: 'detached' });

      await rowOf(page, active.email).getByRole('button', { name: 'Bewerken' }).click();
      const edit = page.getByRole('dialog', { name: 'Gebruiker bewerken' });
      await expectDialogFits(page, edit, 'edit dialog');
      await edit.getByRole('button', { name: 'Annuleren' }).click();
      await edit.waitFor({ state: 'detached' });

      for (const [email, action, title] of [
        [active.email, 'Reset 2FA', '2FA Resetten'],
        [active.email, 'Blokkeer', 'Gebruiker blokkeren'],
        [blocked.email, 'Deblokkeer', 'Gebruiker deblokkeren'],
        [active.email, 'Verwijderen', 'Gebruiker verwijderen'],
      ] as const) {
        await rowOf(page, email).getByRole('button', { name: action }).click();
        const dialog = page.getByRole('alertdialog', { name: title });
        await expectDialogFits(page, dialog, `${title} dialog`);
        await dialog.getByRole('button', { name: 'Annuleren' }).click();
        await dialog.waitFor({ state: 'detached' });
      }

      await menuAt(page).getByRole('link', { name: 'Account instellingen' }).click();
      await page.getByLabel('Achternaam').waitFor();
      await page.waitForLoadState('networkidle');
      await expectMenuUsable(page, 'settings');
      await expectScreenFits(page, 'settings');

      await page.getByRole('link', { name: '2FA configureren' }).click();
      await page.getByRole('heading', { name: 'Je authenticator-app is gekoppeld' }).waitFor();
      await expectScreenFits(page, 'authenticator app of a linked account');
      await page.getByRole('link', { name: 'Terug naar account instellingen' }).click();
      await page.getByLabel('Achternaam').waitFor();

      await openMenu(page);
      await menuAt(page).getByRole('link', { name: 'Datavoorzieningen' }).click();
      await page.getByRole('heading', { level: 1, name: 'Datavoorzieningen' }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectMenuUsable(page, 'data services');
      await expectScreenFits(page, 'data services');
    }

    await menuAt(page).getByRole('link', { name: 'Uitloggen', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('E-mailadres').waitFor();
  }, 300_000);
});

describe('journey 14: the look on a 320 and a 375 px wide phone', () => {
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
      await page.setViewportSize(size);
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
      await page.setViewportSize(sizeOf(width));
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
