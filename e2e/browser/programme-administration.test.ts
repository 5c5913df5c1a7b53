import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { authorizationRequest, discoverClient } from '../support/oidc-relying-party.js';
import { createMember, signInAtAal2 } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { atBothWidths, expectDialogFits, expectScreenFits } from './support/layout.js';
import {
  cli,
  DEMO_CATALOGUE,
  enrolAuthenticator,
  enterTotpCode,
  expectAccessible,
  linkFromMail,
  signInWithPassword,
} from './support/pages.js';

// Journey 32: 'Programmabeheer' (issue 31). A programme administrator (made by the operator's CLI) adds a new
// municipality with the keyboard and invites its first administrator; she follows the mail, chooses a password, links
// an app, finds herself administrator of the new municipality and adds a colleague; the programme's list then counts
// them. The programme administrator then gives the municipality a data role and retires it, and deactivates the
// municipality and makes it active again, each after a confirmation. The colleague follows his mail and sets up too.
// Under 'Datavoorzieningen' the programme administrator adds, with the keyboard only, a data service for all members
// of the municipality with a confidential OpenID Connect client, and copies the secret the portal shows once; a real
// relying party (openid-client) signs the colleague in with it. A new secret with an hour's overlap leaves the old
// one working beside it; another with no overlap ends both earlier ones at once (`invalid_client`), and only the
// newest signs him in.

const journey = useJourney();

/** The colleague the first administrator adds; he signs in at the new data service. */
const SAM = { email: 'sam.stad@nieuwstad.nl', password: 'Stad-Kaart-Wijk-Plein-47' };
/** Kaarten Nieuwstad, the new data service: a blank page for whatever a browser is sent to at its address. */
const kaarten = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end('<!doctype html><html lang="nl"><title>Kaarten Nieuwstad</title></html>');
});
await new Promise<void>((resolve) => kaarten.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => kaarten.close(resolve)));
const KAARTEN = `http://127.0.0.1:${(kaarten.address() as AddressInfo).port}/kaarten`;
const CALLBACK = `${KAARTEN}/callback`;
const CLIENT_ID = 'kaarten-nieuwstad';

/** Presses Tab until `target` has the focus, as a person tabs through a form to a field further on. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${limit} presses of Tab did not reach ${target}`);
}

const hasFocus = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** The colleague follows the mail the first administrator's 'Toevoegen' sent: a password and an app. */
async function colleagueSetsUp(invited: Date): Promise<Page> {
  const sam = await journey.person('collega');
  await sam.goto(await linkFromMail(journey.portaal, SAM.email, invited));
  await sam.getByLabel('Nieuw wachtwoord', { exact: true }).fill(SAM.password);
  await sam.getByLabel('Wachtwoord bevestigen', { exact: true }).fill(SAM.password);
  await sam.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
  await enrolAuthenticator(sam);
  await sam.getByRole('link', { name: 'Verder naar het portaal' }).click();
  await sam.getByRole('heading', { level: 1, name: 'Datavoorzieningen' }).waitFor();
  return sam;
}

/**
 * Kaarten Nieuwstad signs the colleague in with `secret`: its authorization request (PKCE, a state) in his browser,
 * where his portal session answers it with a fresh code at the redirect URI; `redeem` is the service's token request.
 */
async function codeForColleague(sam: Page, secret: string) {
  const config = await discoverClient(journey.portaal.publicUrl, CLIENT_ID, secret);
  const { url, verifier, state } = await authorizationRequest(config, CALLBACK);
  await sam.goto(url.href);
  const callback = new URL(sam.url());
  expect(callback.origin + callback.pathname, 'back at Kaarten Nieuwstad with a code').toBe(CALLBACK);
  const redeem = () =>
    client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  return { config, redeem };
}

/** With `secret` the service gets tokens for the colleague, and userinfo names him. */
async function expectSignedIn(sam: Page, secret: string, which: string) {
  const { config, redeem } = await codeForColleague(sam, secret);
  const tokens = await redeem();
  const { sub, email } = tokens.claims()!;
  expect(email, `the ID token with ${which}`).toBe(SAM.email);
  expect((await client.fetchUserInfo(config, tokens.access_token, sub)).email, `userinfo with ${which}`).toBe(
    SAM.email,
  );
}

/** The OAuth error of a refusal openid-client threw: in the body, or in the `WWW-Authenticate` challenge. */
function oauthErrorOf(error: unknown): string | undefined {
  if (error instanceof client.ResponseBodyError) return error.error;
  if (error instanceof client.WWWAuthenticateChallengeError)
    return error.cause.find((challenge) => challenge.parameters.error)?.parameters.error;
  throw error;
}

/** With `secret` the token endpoint refuses the service (a fresh code, so nothing else is in the way). */
async function expectRefused(sam: Page, secret: string, which: string) {
  const { redeem } = await codeForColleague(sam, secret);
  expect(await redeem().then(() => 'tokens', oauthErrorOf), `the token request with ${which}`).toBe('invalid_client');
}

/** The clipboard of the programme administrator's browser, as a page of the portal reads it. */
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/**
 * The client secret dialog opens with the focus on 'Kopiëren'; Enter copies the secret, the dialog says so, and the
 * clipboard holds what the field shows. Answers the secret.
 */
async function copySecret(page: Page, dialog: Locator): Promise<string> {
  const copy = dialog.getByRole('button', { name: 'Kopiëren' });
  await expect.poll(() => hasFocus(copy), { message: "the focus on 'Kopiëren'" }).toBe(true);
  await page.keyboard.press('Enter');
  await dialog.getByRole('status').getByText('Het clientgeheim is gekopieerd.').waitFor();
  const shown = await dialog.getByLabel('Clientgeheim').inputValue();
  expect(shown).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(await clipboard(page)).toBe(shown);
  return shown;
}

/**
 * 'Datavoorzieningen', keyboard only: a data service for every member of Gemeente Nieuwstad with a confidential
 * OpenID Connect client; the secret the portal makes is copied from the dialog that shows it once. Answers it.
 */
async function addDataService(page: Page): Promise<string> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: journey.portaal.publicUrl });
  await page
    .getByRole('navigation', { name: 'Programmabeheer' })
    .getByRole('link', { name: 'Datavoorzieningen' })
    .focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/programmabeheer/datavoorzieningen');
  const add = page.getByRole('button', { name: 'Datavoorziening toevoegen' });
  await add.waitFor();
  await expectAccessible(page, "'Datavoorzieningen'");
  await atBothWidths(page, () => expectScreenFits(page, "'Datavoorzieningen'"));

  await add.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Datavoorziening toevoegen' });
  await dialog.getByLabel('Code').focus();
  await page.keyboard.type('nieuwstad-kaarten');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Kaarten Nieuwstad');
  await page.keyboard.press('Tab');
  await page.keyboard.type('De kaarten van de wijken van Nieuwstad.');
  await page.keyboard.press('Tab');
  await page.keyboard.type(`${KAARTEN}/`);
  const everyone = dialog
    .getByRole('group', { name: 'Gemeente Nieuwstad', exact: true })
    .getByRole('checkbox', { name: 'Alle leden' });
  await tabTo(page, everyone);
  await page.keyboard.press('Space');
  const oidc = dialog.getByRole('checkbox', { name: 'Inloggen met OpenID Connect' });
  await tabTo(page, oidc);
  await page.keyboard.press('Space');
  await dialog.getByLabel('Client-id').waitFor();
  await page.keyboard.press('Tab');
  expect(await hasFocus(dialog.getByLabel('Client-id')), "'Client-id' after the checkbox").toBe(true);
  await page.keyboard.type(CLIENT_ID);
  await page.keyboard.press('Tab');
  expect(await dialog.getByLabel('Soort client').inputValue()).toBe('confidential');
  await page.keyboard.press('Tab');
  await page.keyboard.type(CALLBACK);
  expect(await everyone.isChecked()).toBe(true);
  expect(await dialog.getByRole('checkbox', { name: 'Forward-auth' }).isChecked()).toBe(true);
  await atBothWidths(page, () => expectDialogFits(page, dialog, "'Datavoorziening toevoegen' filled in"));
  await tabTo(page, dialog.getByRole('button', { name: 'Toevoegen' }));
  await page.keyboard.press('Enter');

  // The secret, this once: copied with the keyboard; 'Sluiten' gives the focus back to where the errand began.
  const shown = page.getByRole('dialog', { name: 'Clientgeheim van Kaarten Nieuwstad' });
  await shown.waitFor();
  await page.getByText('Datavoorziening Kaarten Nieuwstad toegevoegd.').waitFor();
  await atBothWidths(page, () => expectDialogFits(page, shown, "the new client's secret"));
  const secret = await copySecret(page, shown);
  await tabTo(page, shown.getByRole('button', { name: 'Sluiten' }));
  await page.keyboard.press('Enter');
  await shown.waitFor({ state: 'detached' });
  await expect.poll(() => hasFocus(add), { message: "the focus back on 'Datavoorziening toevoegen'" }).toBe(true);

  const row = page.getByRole('row').filter({ hasText: 'Kaarten Nieuwstad' });
  await row.getByText(`OpenID Connect: ${CLIENT_ID} (vertrouwelijk)`).waitFor();
  await row.getByText('Alle leden van Gemeente Nieuwstad').waitFor();
  await atBothWidths(page, () => expectScreenFits(page, "'Datavoorzieningen' with Kaarten Nieuwstad"));
  return secret;
}

/**
 * 'Nieuw geheim' of Kaarten Nieuwstad with the keyboard, the current secret valid `overlap` hours more; answers the
 * new secret, copied from the dialog that shows it once, and what that dialog says of the previous one.
 */
async function rotateSecret(page: Page, overlap: number): Promise<{ secret: string; previous: string }> {
  const opener = page.getByRole('button', { name: 'Nieuw geheim: Kaarten Nieuwstad' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Nieuw clientgeheim' });
  const hours = dialog.getByLabel('Het huidige geheim blijft nog geldig (uren)');
  await hours.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(String(overlap));
  await atBothWidths(page, () => expectDialogFits(page, dialog, `'Nieuw clientgeheim' with ${overlap} hours`));
  await page.keyboard.press('Enter');

  const shown = page.getByRole('dialog', { name: 'Clientgeheim van Kaarten Nieuwstad' });
  await shown.waitFor();
  const previous = (await shown.getByText(/^Het vorige geheim /).innerText()).trim();
  await expectAccessible(page, `the secret made with ${overlap} hours of overlap`);
  const secret = await copySecret(page, shown);
  await page.keyboard.press('Escape');
  await shown.waitFor({ state: 'detached' });
  await expect.poll(() => hasFocus(opener), { message: "the focus back on 'Nieuw geheim'" }).toBe(true);
  return { secret, previous };
}

/** How the portal writes a moment (nl-NL, long date, short time, Dutch time in any browser), as the dialogs do. */
const shownAs = (page: Page, at: number) =>
  page.evaluate(
    (moment) =>
      new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Amsterdam' }).format(
        moment,
      ),
    at,
  );

describe("journey 32: 'Programmabeheer'", () => {
  it('adds a municipality, its administrator and colleague, and a data service whose secret is rotated', async () => {
    const staff = { email: 'pim.programma@dego.nl', password: 'Programma-Raad-Kaart-31' };
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    await createMember(journey.portaal, { ...staff, org: 'dego', first: 'Pim', last: 'Programma' });
    cli(journey.portaal, ['programme-admin', 'add', '--email', staff.email]);
    const { secret } = await signInAtAal2(journey.portaal, staff.email, staff.password);
    const page = await journey.person('programmabeheerder');
    await signInWithPassword(page, staff.email, staff.password);
    await enterTotpCode(page, secret);
    await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: 'Programmabeheer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Programmabeheer' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Gemeente Voorbeeldstad' }).waitFor();
    await expectAccessible(page, "'Programmabeheer'");
    await atBothWidths(page, () => expectScreenFits(page, "'Programmabeheer'"));

    // With the keyboard only: the dialog, its fields in order, and 'Toevoegen'.
    await page.getByRole('button', { name: 'Organisatie toevoegen' }).focus();
    await page.keyboard.press('Enter');
    const add = page.getByRole('dialog', { name: 'Organisatie toevoegen' });
    await add.getByLabel('Code').waitFor();
    await atBothWidths(page, () => expectDialogFits(page, add, "'Organisatie toevoegen'"));
    await add.getByLabel('Code').focus();
    await page.keyboard.type('nieuwstad');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Gemeente Nieuwstad');
    expect(await add.getByLabel('Tweede factor verplicht').isChecked()).toBe(true);
    await add.getByRole('button', { name: 'Toevoegen' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Organisatie Gemeente Nieuwstad toegevoegd.').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Gemeente Nieuwstad' });
    await row.waitFor();

    const newcomer = { email: 'eva.eerste@nieuwstad.nl', password: 'Nieuwe-Stad-Eerste-Dag-1' };
    await row.getByRole('button', { name: 'Beheerder uitnodigen: Gemeente Nieuwstad' }).focus();
    await page.keyboard.press('Enter');
    const invite = page.getByRole('dialog', { name: 'Beheerder uitnodigen' });
    await invite.getByLabel('Voornaam').fill('Eva');
    await invite.getByLabel('Achternaam').fill('Eerste');
    await invite.getByLabel('E-mailadres').fill(newcomer.email);
    await expectAccessible(page, "'Beheerder uitnodigen'");
    const sent = new Date();
    await invite.getByRole('button', { name: 'Uitnodigen' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Eva Eerste is uitgenodigd als beheerder van Gemeente Nieuwstad.').waitFor();

    // The first administrator follows the mail, chooses a password and links an app (Nieuwstad asks for it).
    const link = await linkFromMail(journey.portaal, newcomer.email, sent);
    const eva = await journey.person('eerste beheerder');
    await eva.goto(link);
    await eva.getByLabel('Nieuw wachtwoord', { exact: true }).fill(newcomer.password);
    await eva.getByLabel('Wachtwoord bevestigen', { exact: true }).fill(newcomer.password);
    await eva.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    await enrolAuthenticator(eva);
    await eva.getByRole('link', { name: 'Verder naar het portaal' }).click();
    await eva.getByText('Je bent ingelogd als beheerder voor Gemeente Nieuwstad').waitFor();
    await eva
      .getByRole('navigation', { name: 'Hoofdmenu' })
      .getByRole('link', { name: 'Administratie dashboard' })
      .click();
    await eva.getByRole('heading', { level: 1, name: 'Overzicht' }).waitFor();

    // She adds the first colleague of her municipality herself.
    await eva.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
    const colleague = eva.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await colleague.getByLabel('E-mailadres').fill(SAM.email);
    await colleague.getByLabel('Voornaam').fill('Sam');
    await colleague.getByLabel('Achternaam').fill('Stad');
    const samInvited = new Date();
    await colleague.getByRole('button', { name: 'Toevoegen' }).click();
    await eva.getByText('Nieuwe gebruiker aangemaakt').waitFor();

    // The programme's list counts them: two members, one administrator, one who has not signed in yet.
    await page.reload();
    const counted = page.getByRole('row').filter({ hasText: 'Gemeente Nieuwstad' });
    await expect
      .poll(async () => (await counted.getByRole('cell').allTextContents()).slice(1, 4))
      .toEqual(['2', '1', '1']);

    // A data role for the new municipality, with the keyboard: added, and retired again (nobody holds it yet).
    await counted.getByRole('button', { name: 'Datarollen: Gemeente Nieuwstad' }).focus();
    await page.keyboard.press('Enter');
    const roles = page.getByRole('dialog', { name: 'Datarollen van Gemeente Nieuwstad' });
    await roles.getByText('Gemeente Nieuwstad heeft nog geen datarollen.').waitFor();
    await expectAccessible(page, "'Datarollen'");
    await roles.getByRole('button', { name: 'Datarol toevoegen' }).focus();
    await page.keyboard.press('Enter');
    const addRole = page.getByRole('dialog', { name: 'Datarol toevoegen' });
    await addRole.getByLabel('Code').focus();
    await page.keyboard.type('wonen');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Wonen');
    await page.keyboard.press('Enter');
    await roles.getByRole('status').getByText('Datarol Wonen toegevoegd.').waitFor();
    const wonen = roles.getByRole('listitem').filter({ hasText: 'Wonen' });
    await wonen.getByText('Niemand heeft deze datarol').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Datarol toevoegen');
    await expectAccessible(page, "'Datarollen' with a data role");
    await atBothWidths(page, () => expectDialogFits(page, roles, "'Datarollen'"));

    await wonen.getByRole('button', { name: 'Opheffen: Wonen' }).focus();
    await page.keyboard.press('Enter');
    const retire = page.getByRole('alertdialog', { name: 'Datarol opheffen' });
    await retire.getByText(/^Niemand heeft deze datarol\. Als je Wonen opheft,/).waitFor();
    await retire.getByRole('button', { name: 'Opheffen' }).focus();
    await page.keyboard.press('Enter');
    await roles.getByRole('status').getByText('Datarol Wonen opgeheven.').waitFor();
    await roles.getByText('Gemeente Nieuwstad heeft nog geen datarollen.').waitFor();
    // The retired role's button is gone: the focus goes to 'Datarol toevoegen', inside the dialog Escape closes.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Datarol toevoegen');
    await page.keyboard.press('Escape');
    await roles.waitFor({ state: 'detached' });

    // Deactivated: nothing is deleted, the list says so; then active again.
    await counted.getByRole('button', { name: 'Deactiveren: Gemeente Nieuwstad' }).focus();
    await page.keyboard.press('Enter');
    const deactivate = page.getByRole('alertdialog', { name: 'Organisatie deactiveren' });
    await deactivate
      .getByText(
        'Leden van Gemeente Nieuwstad kunnen dan geen datavoorzieningen meer gebruiken via deze organisatie. Er ' +
          'wordt niets verwijderd; je kunt de organisatie later weer activeren.',
      )
      .waitFor();
    await expectAccessible(page, "'Organisatie deactiveren'");
    await deactivate.getByRole('button', { name: 'Deactiveren' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Gemeente Nieuwstad is gedeactiveerd.').waitFor();
    await counted.getByText('Gedeactiveerd', { exact: true }).waitFor();
    await expectAccessible(page, "'Programmabeheer' with a deactivated organisation");
    // On a laptop the list is still a table, its badge and four buttons a row included (components/use-cards.ts).
    expect(page.viewportSize()!.width).toBe(1280);
    expect(await page.locator('.dvp-table-scroll--cards').count()).toBe(0);
    const activate = counted.getByRole('button', { name: 'Activeren: Gemeente Nieuwstad' });
    await expect.poll(() => activate.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page
      .getByRole('alertdialog', { name: 'Organisatie activeren' })
      .getByRole('button', { name: 'Activeren' })
      .click();
    await page.getByText('Gemeente Nieuwstad is weer actief.').waitFor();
    await expect.poll(() => counted.getByText('Gedeactiveerd', { exact: true }).count()).toBe(0);
    await counted.getByRole('button', { name: 'Deactiveren: Gemeente Nieuwstad' }).waitFor();

    // The colleague sets up; a data service for the municipality, with a client whose secret signs him in there.
    const sam = await colleagueSetsUp(samInvited);
    const first = await addDataService(page);
    await expectSignedIn(sam, first, 'the first secret');

    // A new secret with an hour's overlap: until then the service may still use the old one, or the new one.
    const asked = Date.now();
    const second = await rotateSecret(page, 1);
    const answered = Date.now();
    const hourAhead = [await shownAs(page, asked + 3_600_000), await shownAs(page, answered + 3_600_000)];
    expect(hourAhead.map((at) => `Het vorige geheim blijft geldig tot ${at}.`)).toContain(second.previous);
    expect(second.secret).not.toBe(first);
    await expectSignedIn(sam, first, 'the old secret during the overlap');
    await expectSignedIn(sam, second.secret, 'the new secret');

    // Another without overlap: both earlier secrets stop working at once; only the newest signs him in.
    const third = await rotateSecret(page, 0);
    expect(third.previous).toBe('Het vorige geheim werkt niet meer.');
    await expectRefused(sam, first, 'the first secret');
    await expectRefused(sam, second.secret, 'the second secret');
    await expectSignedIn(sam, third.secret, 'the newest secret');
  }, 180_000);
});
