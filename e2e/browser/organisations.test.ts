import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, DEMO_PASSWORD, signInAtAal2 } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { sidebar } from './support/people.js';
import {
  atBothWidths,
  expectDialogFits,
  expectInsideWindow,
  expectNoSidewaysScroll,
  resizeTo,
} from './support/layout.js';
import { cli, DEMO_CATALOGUE, enterTotpCode, expectAccessible, rowOf, signInWithPassword } from './support/pages.js';

// The demo installation: Bea is the administrator of Gemeente Voorbeeldstad; DEGO needs no second factor.
const journey = useJourney({ args: ['--demo'] });
const BEA = { email: 'beheerder@voorbeeldstad.nl', password: DEMO_PASSWORD };
const DEGO_ADMIN = { email: 'beheer@dego.nl', password: 'Duinen-Dijk-Polder-58' };
const VOORBEELDSTAD_ADMIN = { email: 'tweede.beheerder@voorbeeldstad.nl', password: 'Kade-Brug-Sluis-Molen-93' };
const DEGO = 'DEGO (Data-ecosysteem Gemeentelijke Overheid)';
const PHONE = { width: 375, height: 740 };
/** Set JOURNEY_SCREENSHOTS to a folder to keep a picture of each state, to look at by eye. */
const SCREENSHOTS = process.env.JOURNEY_SCREENSHOTS;

/** Pictures of the page as it is, and at 375 px wide when it is wider now. */
async function shoot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
  const size = page.viewportSize();
  if (!size || size.width <= PHONE.width) return;
  await resizeTo(page, PHONE);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-375.png`, fullPage: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-375-window.png` });
  await resizeTo(page, size);
}

/** No sideways scrolling: the page is no wider than the window. */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

const signedInAs = (page: Page, text: string) => sidebar(page).getByText(text, { exact: true }).waitFor();

const switcherOf = (page: Page) => sidebar(page).getByRole('group', { name: 'Wissel van organisatie' });
const choiceOf = (page: Page, label: string) => switcherOf(page).getByRole('radio', { name: label, exact: true });

async function switchTo(page: Page, label: string) {
  await choiceOf(page, label).check();
  await sidebar(page).getByRole('button', { name: 'Wisselen' }).click();
}

/** The names of the data services on 'Datavoorzieningen', in their order. */
const serviceNames = (page: Page) => page.getByRole('main').getByRole('heading', { level: 2 }).allInnerTexts();

/** The demo catalogue with other names for some of its organisations, loaded in place of the one in force. */
function renameOrganisations(names: Record<string, string>) {
  const catalogue = JSON.parse(readFileSync(DEMO_CATALOGUE, 'utf8')) as {
    organisations: { id: string; label: string }[];
  };
  for (const organisation of catalogue.organisations) organisation.label = names[organisation.id] ?? organisation.label;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'catalogue-')), 'catalogue.json');
  writeFileSync(file, JSON.stringify(catalogue));
  cli(journey.portaal, ['catalogue', 'load', file]);
}

/**
 * Every organisation's name whole in the switcher at this width: the text of its choice in full, wrapping inside the
 * window and its own box, next to a radio button inside the window, and the button inside the window too.
 */
async function expectWholeNames(page: Page, names: string[], state: string) {
  const switcher = switcherOf(page);
  await switcher.scrollIntoViewIfNeeded();
  for (const name of names) {
    const label = switcher.locator('label').filter({ hasText: name });
    expect(await label.innerText()).toBe(name);
    expect(await label.evaluate((element) => element.scrollWidth <= element.clientWidth), `${name} cut`).toBe(true);
    await expectInsideWindow(page, label, state);
    await expectInsideWindow(page, choiceOf(page, name), state);
  }
  await expectInsideWindow(page, sidebar(page).getByRole('button', { name: 'Wisselen' }), state);
  expect(await fitsWidth(page), `sideways scrolling on ${state}`).toBe(true);
}

describe('journey 16: a person in two organisations', () => {
  it('is invited by another organisation, accepts, switches back and forth; each sees its own part', async () => {
    cli(journey.portaal, [
      'user',
      'create',
      '--email',
      DEGO_ADMIN.email,
      '--first-name',
      'Daan',
      '--last-name',
      'Dego',
      '--password',
      DEGO_ADMIN.password,
      '--org',
      'dego',
      '--admin',
    ]);
    cli(journey.portaal, [
      'user',
      'create',
      '--email',
      VOORBEELDSTAD_ADMIN.email,
      '--first-name',
      'Vera',
      '--last-name',
      'Voorbeeld',
      '--password',
      VOORBEELDSTAD_ADMIN.password,
      '--org',
      'voorbeeldstad',
      '--admin',
    ]);
    // Authenticator apps over the API, to keep the journey short.
    const bea = await signInAtAal2(journey.portaal, BEA.email, BEA.password);
    const colleague = await signInAtAal2(journey.portaal, VOORBEELDSTAD_ADMIN.email, VOORBEELDSTAD_ADMIN.password);
    /** Voorbeeldstad's own view of Bea, whatever organisation she works for at the moment. */
    const beaInVoorbeeldstad = async () => {
      const users = await api(journey.portaal, colleague.browser, 'GET', '/users');
      expect(users.status).toBe(200);
      return (users.body as any[]).find((user) => user.traits.email === BEA.email);
    };
    expect((await beaInVoorbeeldstad()).userType.id).toBe('administrator');

    // DEGO's administrator asks Bea to join, from the new-user form.
    const dego = await journey.person('DEGO-beheerder');
    await signInWithPassword(dego, DEGO_ADMIN.email, DEGO_ADMIN.password, '/admin-login');
    await dego.getByRole('table').waitFor();
    await dego.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
    const form = dego.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await form.getByLabel('E-mailadres').fill(BEA.email);
    await form.getByLabel('E-mailadres').blur();
    await form.getByText('Deze gebruiker heeft al een account.').waitFor();
    await form.getByLabel('Analyse').check();
    const sent = new Date();
    await form.getByRole('button', { name: 'Toevoegen' }).click();
    await dego.getByText(`Uitnodiging verstuurd. ${BEA.email} moet de uitnodiging eerst accepteren.`).waitFor();
    const invited = rowOf(dego, BEA.email);
    await invited.getByText('Uitgenodigd', { exact: true }).waitFor();
    await invited.getByRole('cell', { name: 'Analyse' }).waitFor();
    expect(await invited.getByRole('button').allInnerTexts()).toEqual(['Opnieuw versturen', 'Uitnodiging intrekken']);
    await expectAccessible(dego, 'DEGO overview with an invited person');
    await shoot(dego, '0-dego-invited');
    await invited.getByRole('button', { name: 'Uitnodiging intrekken' }).click();
    const withdraw = dego.getByRole('alertdialog', { name: 'Uitnodiging intrekken' });
    await withdraw.waitFor();
    await expectAccessible(dego, 'withdraw-invitation dialog');
    await shoot(dego, '0-dego-withdraw');
    await withdraw.getByRole('button', { name: 'Annuleren' }).click();
    await withdraw.waitFor({ state: 'detached' });

    // The mail names the organisation.
    const mail = await journey.portaal.mail.waitFor(BEA.email, { since: sent });
    expect(`${mail.subject}\n${mail.text}`).toContain(DEGO);

    // Sent again from the row, on a phone and a laptop: asked first, then a second mail.
    await atBothWidths(dego, async () => {
      const where = `the invited row at ${dego.viewportSize()!.width} px`;
      await expectNoSidewaysScroll(dego, where);
      await expectInsideWindow(dego, invited.getByRole('button'), where);
      await invited.getByRole('button', { name: 'Opnieuw versturen' }).click();
      const resend = dego.getByRole('alertdialog', { name: 'Uitnodiging opnieuw versturen' });
      await expectDialogFits(dego, resend, 'resend-invitation dialog');
      if (SCREENSHOTS)
        await dego.screenshot({ path: `${SCREENSHOTS}/0-dego-resend-${dego.viewportSize()!.width}.png` });
      await resend.getByRole('button', { name: 'Annuleren' }).click();
      await resend.waitFor({ state: 'detached' });
    });
    const resentAt = new Date();
    await resizeTo(dego, { width: 375, height: 740 });
    await invited.getByRole('button', { name: 'Opnieuw versturen' }).click();
    await dego.getByRole('alertdialog').getByRole('button', { name: 'Versturen' }).click();
    const toasts = dego.getByRole('list', { name: 'Meldingen' });
    await toasts.getByText(`Uitnodiging opnieuw verstuurd naar ${BEA.email}.`).waitFor();
    // The toast with the long address wraps it, so that its own button stays on a phone's screen.
    await expectInsideWindow(dego, toasts.getByRole('button'), 'the toasts on a phone');
    await resizeTo(dego, { width: 1280, height: 900 });
    const again = await journey.portaal.mail.waitFor(BEA.email, { since: resentAt, filter: (m) => m !== mail });
    expect(`${again.subject}\n${again.text}`).toContain(DEGO);

    // Bea signs in as usual, in Voorbeeldstad, and is told about the invitation on every page.
    const page = await journey.person('Bea');
    await signInWithPassword(page, BEA.email, BEA.password, '/admin-login');
    await enterTotpCode(page, bea.secret);
    await page.getByRole('table').waitFor();
    const notice = page.getByRole('status').filter({ hasText: `Je bent uitgenodigd voor ${DEGO}.` });
    await notice.waitFor();
    await rowOf(page, BEA.email).getByRole('cell', { name: 'Beheerder', exact: true }).waitFor();
    await signedInAs(page, 'Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad');
    expect(await switcherOf(page).count()).toBe(0);
    // The demo sets a feedback and a support address (unless the environment does), and the start banner names them.
    await sidebar(page).getByRole('link', { name: 'feedback@voorbeeldstad.nl' }).waitFor();
    expect(journey.portaal.output()).toContain(
      'Adres voor ondersteuning (SUPPORT_EMAIL): ondersteuning@voorbeeldstad.nl',
    );
    expect(journey.portaal.output()).toContain('Adres voor feedback (FEEDBACK_EMAIL): feedback@voorbeeldstad.nl');
    await expectAccessible(page, 'overview with the invitation notice');
    await shoot(page, '1-notice');

    // She accepts in the account settings.
    await notice.getByRole('link', { name: 'Bekijk de uitnodiging' }).click();
    await page.waitForURL((url) => url.pathname === '/settings' && url.hash === '#organisaties');
    const section = page.getByRole('region', { name: 'Organisaties' });
    await section.getByText('Uitgenodigd door beheer@dego.nl.', { exact: true }).waitFor();
    await section.getByText('Datarollen: Analyse.', { exact: true }).waitFor();
    await expect
      .poll(() => section.getByRole('heading', { name: 'Uitnodigingen' }).evaluate((h) => h === document.activeElement))
      .toBe(true);
    await expectAccessible(page, 'settings with an invitation');
    await shoot(page, '2-invitation');
    await section.getByRole('button', { name: `Uitnodiging van ${DEGO} accepteren` }).click();
    await page.getByText(`Je bent nu lid van ${DEGO}.`).waitFor();
    await section.getByRole('button', { name: `${DEGO} verlaten` }).waitFor();
    await section.getByText('Thuisorganisatie · Beheerder', { exact: true }).waitFor();
    await notice.waitFor({ state: 'detached' });
    expect((await beaInVoorbeeldstad()).userType.id).toBe('administrator');
    await expectAccessible(page, 'settings after accepting');
    await shoot(page, '3-accepted');

    // She switches to DEGO and back; Voorbeeldstad keeps her as its administrator all along.
    expect(await choiceOf(page, 'Gemeente Voorbeeldstad').isChecked()).toBe(true);
    await switchTo(page, DEGO);
    await signedInAs(page, `Je bent ingelogd voor ${DEGO}`);
    expect(await choiceOf(page, DEGO).isChecked()).toBe(true);
    expect(await page.getByRole('link', { name: 'Administratie dashboard' }).count()).toBe(0);
    expect((await beaInVoorbeeldstad()).userType.id).toBe('administrator');
    await expectAccessible(page, 'settings while working for DEGO');
    await shoot(page, '4-dego');

    // 'Datavoorzieningen' shows DEGO's services only, and says so; the Users API lists no others either.
    await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: 'Datavoorzieningen' }).click();
    const whose = (label: string) => page.getByText(`Dit zijn de datavoorzieningen van ${label}.`, { exact: false });
    await whose(DEGO).waitFor();
    await expect.poll(() => serviceNames(page)).toEqual(['Wijkmonitor', 'Begrotingsvergelijker']);
    const listed = await api(journey.portaal, bea.browser, 'GET', '/services');
    expect(listed.body.organisation.id).toBe('dego');
    expect((listed.body.services as { id: string }[]).map((service) => service.id).sort()).toEqual([
      'begrotingsvergelijker',
      'wijkmonitor',
    ]);
    await expectAccessible(page, "DEGO's data services");
    await shoot(page, '4-dego-services');

    await resizeTo(page, PHONE);
    await switcherOf(page).scrollIntoViewIfNeeded();
    expect(await fitsWidth(page)).toBe(true);
    await expectWholeNames(page, ['Gemeente Voorbeeldstad', DEGO], 'the sidebar switcher at 375 px');
    await expectAccessible(page, 'sidebar switcher at 375 px');
    await shoot(page, '5-dego-phone');
    await switchTo(page, 'Gemeente Voorbeeldstad');
    await signedInAs(page, 'Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad');
    await whose('Gemeente Voorbeeldstad').waitFor();
    await expect.poll(() => serviceNames(page)).toEqual(['Wijkmonitor', 'Dashboard jeugdzorg', 'Woningbouwplanner']);
    expect(await fitsWidth(page)).toBe(true);
    await resizeTo(page, { width: 1280, height: 900 });

    await page
      .getByRole('navigation', { name: 'Hoofdmenu' })
      .getByRole('link', { name: 'Administratie dashboard' })
      .click();
    await page.getByRole('table').waitFor();
    await rowOf(page, BEA.email).getByRole('cell', { name: 'Beheerder', exact: true }).waitFor();
    expect((await beaInVoorbeeldstad()).userType.id).toBe('administrator');

    // DEGO sees a guest: no credentials, only this organisation's roles to edit, and removal from DEGO only.
    await dego.reload();
    const guest = rowOf(dego, BEA.email);
    await guest.getByText('Account van een andere organisatie', { exact: true }).waitFor();
    expect(await guest.getByText('Uitgenodigd', { exact: true }).count()).toBe(0);
    expect(await guest.getByRole('button').allInnerTexts()).toEqual(['Bewerken', 'Verwijderen']);
    await guest.getByRole('cell', { name: 'Analyse' }).waitFor();
    // Every organisation of a person sees when they last signed in; DEGO's analyst never did.
    await guest.getByText(/^Laatst ingelogd: \d+ \w+ \d{4} om \d\d:\d\d$/).waitFor();
    await rowOf(dego, 'analist@dego.nl').getByText('Nog nooit ingelogd', { exact: true }).waitFor();
    await atBothWidths(dego, async () => {
      const where = `the overview's notes at ${dego.viewportSize()!.width} px`;
      await expectNoSidewaysScroll(dego, where);
      await expectInsideWindow(dego, dego.locator('.dvp-row-note'), where);
    });
    await expectAccessible(dego, 'DEGO overview with a guest');
    await shoot(dego, '6-dego-overview');
    await guest.getByRole('button', { name: 'Bewerken' }).click();
    const edit = dego.getByRole('dialog', { name: 'Gebruiker bewerken' });
    await edit.getByText(BEA.email, { exact: true }).waitFor();
    expect(await edit.getByRole('textbox').count()).toBe(0);
    expect(await edit.getByLabel('Analyse').isChecked()).toBe(true);
    await expectAccessible(dego, 'guest edit dialog');
    await shoot(dego, '7-guest-edit');
    await edit.getByRole('button', { name: 'Annuleren' }).click();
    await edit.waitFor({ state: 'detached' });
    await guest.getByRole('button', { name: 'Verwijderen' }).click();
    const remove = dego.getByRole('alertdialog', { name: 'Gebruiker uit je organisatie verwijderen' });
    await remove
      .getByText(
        'Weet je zeker dat je Bea Beheerder uit je organisatie wilt verwijderen? Het account blijft ' +
          'bestaan voor de andere organisatie(s).',
      )
      .waitFor();
    await expectAccessible(dego, 'guest remove dialog');
    await shoot(dego, '8-guest-remove');
    await remove.getByRole('button', { name: 'Annuleren' }).click();
    await remove.waitFor({ state: 'detached' });

    // The guest's edit dialog on a phone: inside the window, nothing to scroll sideways.
    await resizeTo(dego, PHONE);
    await guest.getByRole('button', { name: 'Bewerken' }).click();
    await edit.getByText(BEA.email, { exact: true }).waitFor();
    const dialog = await dego.locator('.dvp-modal').boundingBox();
    expect(dialog && dialog.x >= 0 && dialog.x + dialog.width <= PHONE.width).toBe(true);
    expect(await fitsWidth(dego)).toBe(true);
    await expectAccessible(dego, 'guest edit dialog at 375 px');
    await edit.getByRole('button', { name: 'Annuleren' }).click();

    // Long names and names with accents stand whole in the switcher, at the reflow width, on a phone and a laptop.
    const names = ['Gemeente Súdwest-Fryslân', 'Gemeenschappelijke Regeling Gegevensdiensten Noord-Holland Noord'];
    renameOrganisations({ voorbeeldstad: names[0]!, dego: names[1]! });
    // The catalogue is read again after a few seconds.
    await expect
      .poll(
        async () => {
          await page.reload();
          await switcherOf(page).waitFor();
          return switcherOf(page).innerText();
        },
        { timeout: 20_000 },
      )
      .toContain(names[1]);
    for (const width of [320, 375, 1280]) {
      await resizeTo(page, { width, height: 900 });
      await expectWholeNames(page, names, `the switcher with long names at ${width} px`);
      await expectAccessible(page, `the switcher with long names at ${width} px`);
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/9-long-names-${width}.png`, fullPage: true });
    }
  });
});
