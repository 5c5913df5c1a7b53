import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { totpCode } from '../support/identities.js';
import { useJourney } from './support/journey.js';
import { expectDialogFits, expectNoSidewaysScroll, openMenu, resizeTo } from './support/layout.js';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  enterTotpCode,
  expectAccessible,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';
import { descriptionOf, sidebar } from './support/people.js';

const journey = useJourney();

/** The window of WCAG 2.4.11's check: a small laptop window, or a large one zoomed to 200 %. */
const SMALL = { width: 640, height: 450 };
const titled = (title: string) => `${title} – Datavoorzieningen Portaal`;
const CHANGED = 'Je gegevens zijn aangepast.';

/** Screenshots for a person to look at, when A11Y_SCREENSHOTS names a folder (never asserted). */
async function snap(page: Page, name: string) {
  const folder = process.env.A11Y_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${name}-${page.viewportSize()!.width}.png`), fullPage: true });
}

/** Waits until the element `locator` finds has the focus (not the page, not the button that was pressed). */
async function expectFocusOn(page: Page, locator: Locator, what: string) {
  await locator.waitFor();
  await expect
    .poll(() => locator.evaluate((element) => element === document.activeElement), {
      message: `the focus is on ${what} (when the wait began it was on ${await describeFocus(page)})`,
      timeout: 5_000,
    })
    .toBe(true);
}

const describeFocus = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'the page itself (<body>)';
    return `<${element.tagName.toLowerCase()}> '${(element.textContent ?? '').trim().slice(0, 40)}'`;
  });

/**
 * Tabs through the whole page from its top, and for every element that gets the focus checks that the browser
 * scrolled it into the window and that nothing else covers it: the element at the centre of its visible part is the
 * element itself or inside it (WCAG 2.4.11, focus not obscured). Returns the names of the elements passed.
 */
async function expectFocusNeverObscured(page: Page, state: string): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const passed: string[] = [];
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press('Tab');
    const seen = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return undefined;
      const box = element.getBoundingClientRect();
      const left = Math.max(box.left, 0);
      const right = Math.min(box.right, window.innerWidth);
      const top = Math.max(box.top, 0);
      const bottom = Math.min(box.bottom, window.innerHeight);
      const labelled = (element as HTMLInputElement).labels?.[0]?.textContent;
      const name = (element.getAttribute('aria-label') || labelled || element.textContent || '').trim().slice(0, 40);
      const label = `<${element.tagName.toLowerCase()}> '${name || element.id}'`;
      if (right <= left || bottom <= top) return { label, covered: 'out of the window' };
      const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
      const own = hit && (hit === element || element.contains(hit) || (hit as HTMLLabelElement).control === element);
      return { label, covered: own ? '' : `under ${hit ? hit.outerHTML.slice(0, 100) : 'nothing'}` };
    });
    if (!seen || passed.includes(seen.label)) break;
    passed.push(seen.label);
    expect(seen.covered, `${seen.label} with the focus on ${state} at ${SMALL.width} × ${SMALL.height}`).toBe('');
  }
  expect(passed.length, `nothing to tab to on ${state}`).toBeGreaterThan(1);
  return passed;
}

/** English words that have no Dutch twin: text with one of them is English. */
const ENGLISH = new RegExp(
  '\\b(the|please|your|you|invalid|provided|requested|request|rejected|error|occurred|internal|used|been|' +
    'with|this|has|and|could|should|must)\\b',
  'i',
);

/** No English text on the Dutch page unless it is marked `lang="en"` (WCAG 3.1.2); product names excepted. */
async function expectDutchOnly(page: Page, state: string) {
  const english = await page.evaluate((pattern) => {
    const words = new RegExp(pattern, 'i');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const found: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, noscript, [hidden], [aria-hidden="true"]')) continue;
      const text = (node.textContent ?? '').trim();
      if (text && words.test(text) && !parent.closest('[lang^="en"]')) found.push(text.slice(0, 80));
    }
    return found;
  }, ENGLISH.source);
  expect(english, `English without lang="en" on ${state}`).toEqual([]);
  expect(await page.getAttribute('html', 'lang')).toBe('nl');
}

/** The app's code of 40 steps of 30 s from now: a code of the right form that the provider surely refuses. */
const wrongCode = (secret: string) => totpCode(secret, 40);

describe('journey 18: focus, titles, current step and page, plain Dutch (WCAG 2.2 AA)', () => {
  it('focuses the error, the second step, the sign-in form after each sign-in action; a title per step', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { first: 'Floor' });
    const page = await journey.person('collega');
    await page.goto('/login');
    await page.getByLabel('E-mailadres').waitFor();
    expect(await page.title()).toBe(titled('Inloggen'));

    // An empty form: the summary names each field and what to do.
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    const summary = page.getByRole('alert', { name: 'Controleer de volgende velden:' });
    await expectFocusOn(page, summary, 'the error summary of an empty sign-in');
    expect(await summary.getByRole('listitem').allInnerTexts()).toEqual([
      'Vul je e-mailadres in.',
      'Vul je wachtwoord in.',
    ]);
    await expectDutchOnly(page, 'sign-in with the error summary');

    // A wrong password: the refusal has the focus.
    await page.getByLabel('E-mailadres').fill(colleague.email);
    await page.getByLabel('Wachtwoord', { exact: true }).fill('Fout-Wachtwoord-1');
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Het e-mailadres of wachtwoord klopt niet.' });
    await expectFocusOn(page, refusal, 'the refusal of a wrong password');
    await expectAccessible(page, 'sign-in refused');

    // The right password: the second step, with the focus in its code field and its own title.
    await page.getByLabel('Wachtwoord', { exact: true }).fill(colleague.password);
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    const code = page.getByLabel('Verificatiecode');
    await expectFocusOn(page, code, 'the code field of the second step');
    await expect.poll(() => page.title()).toBe(titled('Inloggen – tweede stap'));
    await snap(page, 'tweede-stap');

    // A wrong code: said under the field, which is marked invalid, and in the summary, which has the focus.
    await code.fill(await wrongCode(colleague.secret!));
    await page.getByRole('button', { name: 'Log in' }).click();
    const wrong =
      'De verificatiecode klopt niet of is al gebruikt. Vul de code in die je authenticator-app nu laat zien.';
    await expectFocusOn(page, summary, 'the error summary of a wrong code');
    expect(await summary.getByRole('listitem').allInnerTexts()).toEqual([wrong]);
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(code)).toBe(wrong);
    await expectAccessible(page, 'second step with a wrong code');
    await expectDutchOnly(page, 'second step with a wrong code');
    await snap(page, 'tweede-stap-foute-code');

    await enterTotpCode(page, colleague.secret!);
    await page.waitForURL((url) => url.pathname === '/permissies');
    await page.getByRole('heading', { level: 1, name: 'Datavoorzieningen' }).waitFor();
    expect(await page.title()).toBe(titled('Datavoorzieningen'));
    const menu = page.getByRole('navigation', { name: 'Hoofdmenu' });
    expect(await menu.getByRole('link', { name: 'Datavoorzieningen' }).getAttribute('aria-current')).toBe('page');
    expect(await menu.locator('[aria-current]').count()).toBe(1);
    await expectDutchOnly(page, 'Datavoorzieningen');

    // On a phone the menu behind the 'Menu' button marks the page too.
    await resizeTo(page, { width: 375, height: 740 });
    await openMenu(page);
    await menu.getByRole('link', { name: 'Account instellingen' }).click();
    await page.getByLabel('Achternaam').waitFor();
    await openMenu(page);
    expect(await menu.getByRole('link', { name: 'Account instellingen' }).getAttribute('aria-current')).toBe('page');
    expect(await menu.getByRole('link', { name: 'Datavoorzieningen' }).getAttribute('aria-current')).toBeNull();
    await resizeTo(page, { width: 1280, height: 900 });

    // Saving the settings: the answer has the focus and is said once.
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Naam', { exact: true }).fill('Floortje');
    await page.getByRole('button', { name: 'Bewerkingen opslaan' }).click();
    await expectFocusOn(page, page.getByRole('status').filter({ hasText: CHANGED }), 'the answer after saving');
    expect(await page.getByText(CHANGED, { exact: true }).count()).toBe(1);
    await expectDutchOnly(page, 'settings saved');

    // Signing out: the sign-in screen says so and has the focus in its first field.
    await sidebar(page).getByRole('link', { name: 'Uitloggen', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('status').filter({ hasText: 'Je bent uitgelogd.' }).waitFor();
    await expectFocusOn(page, page.getByLabel('E-mailadres'), 'the e-mail field after signing out');
    await expectAccessible(page, 'sign-in after signing out');
  });

  it('links the app and makes backup codes with the focus on each new state, the key in groups of four', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const newcomer = await createColleague(journey, { first: 'Noor', withApp: false });
    const page = await journey.person('nieuwkomer');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInWithPassword(page, newcomer.email, newcomer.password);
    await page.waitForURL((url) => url.pathname === '/settings/2fa-app');
    await page.getByLabel('Code controleren').waitFor();
    await expect.poll(() => page.title()).toBe(titled('Authenticator-app instellen – app koppelen'));

    // The key: 32 characters in groups of four on the screen; copied, the key itself.
    const shown = await page.locator('#totp_secret_key code').innerText();
    expect(shown).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    const key = shown.replace(/ /g, '');
    await page.getByRole('button', { name: 'Sleutel kopiëren' }).click();
    await page.getByText('De sleutel staat op je klembord.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const selected = await page.locator('#totp_secret_key code').evaluate((element) => {
      window.getSelection()!.selectAllChildren(element);
      const data = new DataTransfer();
      element.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
      return data.getData('text/plain');
    });
    expect(selected).toBe(key);
    await expectAccessible(page, 'authenticator app to link');
    await expectDutchOnly(page, 'authenticator app to link');
    for (const width of [375, 1280]) {
      await resizeTo(page, { width, height: width < 940 ? 800 : 900 });
      await snap(page, 'authenticator-app-koppelen');
    }

    // Linked: the focus on the heading of the new state, the change said once.
    await page.getByLabel('Code controleren').fill(await totpCode(key, -1));
    await page.getByRole('button', { name: 'Opslaan' }).click();
    await expectFocusOn(
      page,
      page.getByRole('heading', { name: 'Je authenticator-app is gekoppeld' }),
      'the heading of the linked app',
    );
    expect(await page.title()).toBe(titled('Authenticator-app instellen – app gekoppeld'));
    expect(await page.getByText(CHANGED, { exact: true }).count()).toBe(1);

    // New backup codes: announced by their heading, which has the focus, and read before their buttons.
    await page.getByRole('button', { name: 'Nieuwe back-upcodes maken' }).click();
    const codesHeading = page.getByRole('heading', { level: 3, name: 'Je back-upcodes' });
    await expectFocusOn(page, codesHeading, 'the heading of the new backup codes');
    expect(await page.title()).toBe(titled('Authenticator-app instellen – back-upcodes bewaren'));
    const order = await page.evaluate(() => {
      const grid = document.querySelector('#lookup_secret_codes')!;
      const buttons = Array.from(document.querySelectorAll('button'));
      const copy = buttons.find((button) => button.textContent === 'Kopiëren')!;
      const heading = document.querySelector('#dvp-codes-list')!;
      const follows = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
      return { gridAfterHeading: follows(heading, grid), copyAfterGrid: follows(grid, copy) };
    });
    expect(order).toEqual({ gridAfterHeading: true, copyAfterGrid: true });
    expect(await page.getByText(CHANGED, { exact: true }).count()).toBeLessThanOrEqual(1);
    await expectAccessible(page, 'new backup codes');
    await expectDutchOnly(page, 'new backup codes');
    for (const width of [375, 1280]) {
      await resizeTo(page, { width, height: width < 940 ? 800 : 900 });
      await snap(page, 'back-upcodes');
    }

    // Going on before confirming them asks first: unconfirmed codes do not count. Cancelled, the focus comes back.
    const goOn = page.getByRole('link', { name: 'Verder naar het portaal' });
    await goOn.click();
    const unconfirmed = page.getByRole('alertdialog', { name: 'Back-upcodes niet bevestigd' });
    await unconfirmed.waitFor();
    await expect
      .poll(() => unconfirmed.evaluate((dialog) => dialog.contains(document.activeElement)), {
        message: 'the focus in the dialog about unconfirmed codes',
      })
      .toBe(true);
    for (const width of [375, 1280]) {
      await resizeTo(page, { width, height: width < 940 ? 800 : 900 });
      await expectDialogFits(page, unconfirmed, 'the question about unconfirmed codes');
    }
    await unconfirmed.getByRole('button', { name: 'Annuleren' }).click();
    await expectFocusOn(page, goOn, "'Verder naar het portaal' after cancelling");
    expect(new URL(page.url()).pathname).toBe('/settings/2fa-app');

    await page.getByRole('button', { name: 'Back-upcodes bevestigen' }).click();
    await expectFocusOn(
      page,
      page.getByRole('heading', { level: 2, name: 'Stap 2: bewaar je back-upcodes' }),
      'the backup-code step after confirming',
    );
    expect(await page.getByText(CHANGED, { exact: true }).count()).toBe(1);
    expect(await page.title()).toBe(titled('Authenticator-app instellen – app gekoppeld'));

    // The codes shown again: 'Used' is the spec's English, marked as such.
    await page.getByRole('button', { name: 'Back-upcodes tonen' }).click();
    await expectFocusOn(page, codesHeading, 'the heading of the codes shown again');
    await expectDutchOnly(page, 'backup codes shown again');
  });

  it('says the recovery mail is on its way with the focus on that answer, and marks the current step', async () => {
    const page = await journey.person('vergeetachtig');
    await page.goto('/recovery');
    await page.getByRole('heading', { level: 1, name: 'Herstel je wachtwoord' }).waitFor();
    expect(await page.title()).toBe(titled('Herstel je wachtwoord – stap 1 van 4'));
    const steps = page.getByRole('list', { name: 'Voortgang' }).getByRole('listitem');
    expect(await steps.evaluateAll((items) => items.map((item) => item.getAttribute('aria-current')))).toEqual([
      'step',
      null,
      null,
      null,
    ]);

    // Empty: the field says what to fill in, and has the focus.
    await page.getByRole('button', { name: 'Versturen' }).click();
    const email = page.getByLabel('E-mailadres');
    await page.getByText('Vul je e-mailadres in.', { exact: true }).waitFor();
    await expectFocusOn(page, email, 'the empty e-mail field');
    expect(await email.getAttribute('aria-invalid')).toBe('true');

    await email.fill('iemand@voorbeeldstad.nl');
    await page.getByRole('button', { name: 'Versturen' }).click();
    const answer = page.getByRole('status').filter({ hasText: 'E-mail niet ontvangen?' });
    await expectFocusOn(page, answer, 'the answer after Versturen');
    expect(await page.title()).toBe(titled('Herstel je wachtwoord – kijk in je e-mail'));
    await expectAccessible(page, 'recovery sent');
    await expectDutchOnly(page, 'recovery sent');
    for (const width of [375, 1280]) {
      await resizeTo(page, { width, height: width < 940 ? 800 : 900 });
      await snap(page, 'herstel-verstuurd');
    }
  });

  it('verifies an address with the mailed code and then offers one way on, with the focus on the answer', async () => {
    const colleague = await createColleague(journey, { first: 'Vera', withApp: false });
    const page = await journey.person('verificatie');
    await page.goto('/verification');
    await page.getByLabel('E-mailadres').fill(colleague.email);
    const sent = new Date();
    await page.getByRole('button', { name: 'Verder', exact: true }).click();
    const mail = await journey.portaal.mail.waitFor(colleague.email, { since: sent });
    await page.getByLabel('Verificatiecode').fill(/\b\d{6}\b/.exec(mail.text)![0]);
    await page.getByRole('button', { name: 'Verder', exact: true }).click();
    await expectFocusOn(
      page,
      page.getByRole('status').filter({ hasText: 'Je e-mailadres is bevestigd.' }),
      'the answer',
    );
    expect(await page.title()).toBe(titled('Verifieer je account – account geverifieerd'));
    // Not signed in and no app yet: on to the app; the provider's own 'Verder' is not offered beside it.
    expect(await page.getByRole('main').getByRole('link').allInnerTexts()).toEqual([
      'Verder: authenticator-app instellen',
      'Ga naar de login pagina',
    ]);
    await expectAccessible(page, 'verified');
    for (const width of [375, 1280]) {
      await resizeTo(page, { width, height: width < 940 ? 800 : 900 });
      await expectNoSidewaysScroll(page, `verified at ${width} px`);
      await snap(page, 'geverifieerd');
    }
  });

  it('explains an error in Dutch and marks the English technical message as English', async () => {
    const page = await journey.person('foutpagina');
    await page.goto('/error?id=stub:500');
    const english = page.locator('[lang="en"]');
    await english.waitFor();
    expect(await english.innerText()).toMatch(/[a-z]/);
    await page.getByText('Er ging iets mis in het portaal. Dat ligt niet aan jou.').waitFor();
    await expectDutchOnly(page, 'error page');
    await expectAccessible(page, 'error page with a technical message');
    for (const width of [375, 1280]) {
      await resizeTo(page, { width, height: width < 940 ? 800 : 900 });
      await snap(page, 'foutpagina');
    }
  });

  it('keeps every focused element in view and uncovered at 640 × 450 on every screen', async () => {
    const admin = await signInAsAdministrator(journey);
    const page = admin.page;
    await resizeTo(page, SMALL);
    const screens: [string, string, () => Promise<unknown>][] = [
      ['overview', '/', () => page.getByRole('table').waitFor()],
      ['Datavoorzieningen', '/permissies', () => page.getByRole('link', { name: /Naar Wijkmonitor/ }).waitFor()],
      ['settings', '/settings', () => page.getByLabel('Achternaam').waitFor()],
      [
        'authenticator app (linked)',
        '/settings/2fa-app',
        () => page.getByRole('button', { name: 'Nieuwe back-upcodes maken' }).waitFor(),
      ],
    ];
    for (const [state, address, ready] of screens) {
      await page.goto(address);
      await ready();
      await page.waitForLoadState('networkidle');
      await expectFocusNeverObscured(page, state);
    }

    // Signed out: sign-in, recovery, the error page; then the second step and linking an app.
    const visitor = await journey.person('bezoeker', SMALL);
    for (const [state, address, ready] of [
      ['sign-in', '/login', 'E-mailadres'],
      ['recovery', '/recovery', 'E-mailadres'],
    ] as const) {
      await visitor.goto(address);
      await visitor.getByLabel(ready).waitFor();
      await expectFocusNeverObscured(visitor, state);
    }
    const colleague = await createColleague(journey, { first: 'Ties' });
    await signInWithPassword(visitor, colleague.email, colleague.password);
    await visitor.getByLabel('Verificatiecode').waitFor();
    await expectFocusNeverObscured(visitor, 'second step');

    const newcomer = await createColleague(journey, { first: 'Lot', withApp: false });
    const linking = await journey.person('koppelen', SMALL);
    await signInWithPassword(linking, newcomer.email, newcomer.password);
    await linking.getByLabel('Code controleren').waitFor();
    const passed = await expectFocusNeverObscured(linking, 'authenticator app (to link)');
    expect(passed.some((label) => label.includes('Code controleren') || label.includes('totp_code'))).toBe(true);
  });

  it('reflows Datavoorzieningen at 320 px, also with 200 % text: name and heading wrap, cards fit', async () => {
    // A catalogue with a service whose name and description hold words longer than a phone is wide.
    const catalogue = JSON.parse(readFileSync(DEMO_CATALOGUE, 'utf8')) as {
      services: { id: string; name: string; description: string; url: string; access: unknown }[];
    };
    catalogue.services.push({
      id: 'lange-namen',
      name: 'Woningbouwprogrammeringsmonitorvoorgemeenten',
      description: 'Zie https://woningbouwprogrammeringsmonitor.voorbeeld.nl/handleidingen/gemeentelijke-gebruikers.',
      url: 'https://woningbouw.voorbeeld.nl',
      access: { organisations: ['voorbeeldstad'] },
    });
    const file = path.join(os.tmpdir(), `catalogus-lange-namen-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(catalogue));
    cli(journey.portaal, ['catalogue', 'load', file]);
    const colleague = await createColleague(journey, { first: 'Bo' });
    const page = await journey.person('telefoon', { width: 320, height: 640 });
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!);
    await page.waitForURL((url) => url.pathname === '/permissies');
    // The server keeps the catalogue for a few seconds, so one loaded by another process shows after a reload.
    const longName = page.getByRole('link', { name: /Naar Woningbouwprogrammeringsmonitor/ });
    await expect
      .poll(
        async () => {
          if (await longName.isVisible()) return true;
          await page.reload();
          await page.getByRole('heading', { level: 1 }).waitFor();
          return longName.isVisible();
        },
        { message: 'the service of the newly loaded catalogue is listed', timeout: 20_000, interval: 1_000 },
      )
      .toBe(true);

    for (const text of ['100%', '200%']) {
      await page.evaluate((size) => {
        document.documentElement.style.fontSize = size;
      }, text);
      const state = `Datavoorzieningen at 320 px with ${text} text`;
      await expectNoSidewaysScroll(page, state);
      const boxes = await page.evaluate(() =>
        Array.from(
          document.querySelectorAll('header p, main h1, .dvp-card, .dvp-card h2, .dvp-card p, .dvp-card a'),
        ).map((element) => {
          const box = element.getBoundingClientRect();
          return {
            what: `${element.tagName} ${(element.textContent ?? '').slice(0, 30)}`,
            right: box.right,
            overflows: element.scrollWidth > element.clientWidth + 1,
          };
        }),
      );
      for (const box of boxes) {
        expect(box.right, `${box.what} on ${state}`).toBeLessThanOrEqual(320);
        expect(box.overflows, `${box.what} wider than its box on ${state}`).toBe(false);
      }
      await snap(page, `datavoorzieningen-tekst-${text.replace('%', '')}`);
    }
    await page.evaluate(() => {
      document.documentElement.style.fontSize = '';
    });
    await expectAccessible(page, 'Datavoorzieningen at 320 px');
  });
});
