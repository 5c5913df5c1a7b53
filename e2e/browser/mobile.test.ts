import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import {
  expectDialogFits,
  expectInsideWindow,
  expectMenuUsable,
  expectScreenFits,
  menuAt,
  openMenu,
  resizeTo,
  sizeOf,
  visit,
  WIDTHS,
} from './support/layout.js';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  rowOf,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';

// The look on a phone (landmarks, progress steps, NL Design forms) is journey 14b, in phone-look.test.ts: a file of
// its own, so that the two halves run beside each other.
const journey = useJourney();

describe('journey 14: every screen and dialog at 320, 375, 480, 940 and 1280 px', () => {
  it('fits the screens for signing in, recovery, verification and errors', async () => {
    const page = await journey.person('zonder account');
    for (const width of WIDTHS) {
      await resizeTo(page, sizeOf(width));
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
      await resizeTo(page, sizeOf(width));
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
      await resizeTo(page, sizeOf(width));
      await expectScreenFits(page, 'second step of sign-in');
      await page.getByRole('link', { name: 'Uitloggen', exact: true }).click({ trial: true });
      await resizeTo(newcomer, sizeOf(width));
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
      await resizeTo(page, sizeOf(width));
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
