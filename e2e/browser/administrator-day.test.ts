import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { authorizationRequest, discoverClient, followWhileOnPortal } from '../support/oidc-relying-party.js';
import { lockWithWrongPasswords, signInAtAal2 } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { createColleague, expectAccessible, rowOf, signInAsAdministrator } from './support/pages.js';
import { atBothWidths, expectDialogFits, expectScreenFits, openMenu, resizeTo } from './support/layout.js';

// Journey 29: an organisation administrator's day (issue 30), with the keyboard, axe, at 375 and 1280 px.
// 1. 'Vergrendeld': a colleague locked by ten wrong passwords is found with 'Status' and unlocked with the keyboard.
// 2. 'Logboek': the administrator blocks a colleague, opens the audit log from the overview, narrows it to that
//    colleague with the keyboard, reads what happened in Dutch sentences, downloads what is shown and finds the
//    download in the log too; on a phone the colleague's row in the overview leads to their part of it.
// 3. 'Personen importeren': 50 people from a CSV file, 3 of them refused for their content: the preview says per row
//    what will happen, the import runs, the report is downloaded, and the same file again would change nothing.
// 4. 'Toegangsreview': a colleague signed in at the data service of her data role, through forward authentication and
//    through the portal's OpenID Connect provider; the administrator withdraws that role with the keyboard, keeps the
//    rest and confirms, and at once the service's check answers 403, userinfo refuses the access token and the
//    refresh token is `invalid_grant`, while her portal session stays; the finished review is downloaded as evidence.

const RUN = randomUUID().slice(0, 6);
const SERVICE = 'jeugdzorg-dashboard';
const CLIENT_ID = 'jeugdzorg';
const CLIENT_SECRET = 'dashboard-jeugdzorg-geheim-van-minstens-32-tekens';
/** The service's redirect URI: never requested, the redirects are followed only while they stay on the portal. */
const CALLBACK = 'http://127.0.0.1:9/callback';

// The demo catalogue with an OpenID Connect client for the data service, given to the portal at its start. The
// administrator's sign-in loads this file again rather than the demo catalogue, which would drop the client.
const dir = mkdtempSync(path.join(os.tmpdir(), 'administrator-day-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CATALOGUE = path.join(dir, 'catalogue.json');
const catalogue = JSON.parse(
  readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8'),
);
catalogue.services.find((s: { id: string }) => s.id === SERVICE).oidc = {
  clientId: CLIENT_ID,
  redirectUris: [CALLBACK],
};
writeFileSync(CATALOGUE, JSON.stringify(catalogue));

const journey = useJourney({ env: { CATALOGUE_FILE: CATALOGUE, OIDC_CLIENT_SECRET_JEUGDZORG: CLIENT_SECRET } });

/** Calls the Users API from the administrator's page, as the screens do; returns the status and the JSON. */
const call = (page: Page, method: string, where: string, body?: unknown) =>
  page.evaluate(
    async ([how, address, json]) => {
      const response = await fetch(`/api${address}`, {
        method: how,
        headers: json ? { 'content-type': 'application/json' } : {},
        body: json,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    [method, where, body === undefined ? undefined : JSON.stringify(body)] as const,
  );

/** 'Vergrendeld': ten wrong passwords lock a colleague; the overview's 'Status' finds them, and the lock is lifted. */
async function liftALock(page: Page) {
  const colleague = await createColleague(journey, { first: 'Sanne', last: 'Slot' });
  await lockWithWrongPasswords(journey.portaal, colleague.email);
  await page.reload();
  // 'Status: Vergrendeld' lists the locked account alone; once unlocked it leaves that list.
  await page.getByLabel('Status').selectOption({ label: 'Vergrendeld' });
  await page.getByText('1 gebruiker gevonden').waitFor();
  const row = rowOf(page, colleague.email);
  await row.getByText('Vergrendeld', { exact: true }).waitFor();
  await row.getByText(/^Te vaak een verkeerd wachtwoord, tot /).waitFor();
  await expectAccessible(page, 'overview with a locked account');
  await atBothWidths(page, () => expectScreenFits(page, "the overview narrowed to 'Vergrendeld'"));

  // With the keyboard only: onto 'Ontgrendelen' in the row, Enter; in the question, onto 'Ontgrendelen', Enter.
  await row.getByRole('button', { name: `Ontgrendelen: ${colleague.name}` }).focus();
  await page.keyboard.press('Enter');
  const unlock = page.getByRole('alertdialog', { name: 'Account ontgrendelen' });
  await atBothWidths(page, () => expectDialogFits(page, unlock, 'the question before unlocking'));
  await unlock.getByRole('button', { name: 'Ontgrendelen' }).focus();
  await page.keyboard.press('Enter');
  await page.getByText('Account ontgrendeld.').waitFor();
  await page.getByText('Geen gebruikers met deze status.').waitFor();
  expect(await row.getByText('Vergrendeld', { exact: true }).count()).toBe(0);

  // The right password works again (a locked account would refuse it): she signs in with it and her code.
  await signInAtAal2(journey.portaal, colleague.email, colleague.password, colleague.secret);
  await page.getByLabel('Status').selectOption({ label: 'Alle statussen' });
}

const sentences = (page: Page) => page.locator('tbody tr td:nth-child(2)').allTextContents();

/** 'Logboek': narrowed to one colleague with the keyboard, in Dutch, downloaded, and the download recorded. */
async function readTheLog(page: Page) {
  const colleague = `collega-${RUN}@voorbeeldstad.nl`;
  const created = await call(page, 'POST', '/users', {
    traits: { email: colleague, name: { first: 'Piet', last: 'Jansen' } },
  });
  expect(created.status).toBe(201);
  const listed = await call(page, 'GET', `/users?email=${encodeURIComponent(colleague)}`);
  expect((await call(page, 'PUT', `/users/${listed.body[0].id}`, { state: 'inactive' })).status).toBe(200);

  await page.getByRole('link', { name: 'Logboek bekijken' }).click();
  await page.getByRole('heading', { level: 1, name: 'Logboek' }).waitFor();
  await expect.poll(() => sentences(page)).toContain('Bea Beheer heeft Piet Jansen geblokkeerd');

  // With the keyboard only: into 'Persoon (e-mailadres)', type, and Enter filters.
  await page.getByLabel('Persoon (e-mailadres)').focus();
  await page.keyboard.type(`COLLEGA-${RUN}`);
  await page.keyboard.press('Enter');
  await expect
    .poll(() => sentences(page))
    .toEqual(['Bea Beheer heeft Piet Jansen geblokkeerd', 'Bea Beheer heeft Piet Jansen toegevoegd']);
  await page.getByRole('status').filter({ hasText: '2 regels getoond' }).waitFor();
  await atBothWidths(page, () => expectScreenFits(page, "'Logboek' narrowed to one colleague"));

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Deze regels downloaden (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^logboek-voorbeeldstad-\d{4}-\d\d-\d\d\.csv$/);
  const lines = readFileSync(await download.path(), 'utf8')
    .split('\r\n')
    .filter(Boolean);
  expect(lines[0]).toBe('\uFEFFDatum en tijd;Actie;Gebeurtenis;Uitkomst;Door;Over;IP-adres');
  expect(lines.slice(1).map((line) => line.split(';').slice(1, 4))).toEqual([
    ['Geblokkeerd', 'Bea Beheer heeft Piet Jansen geblokkeerd', 'gelukt'],
    ['Account aangemaakt', 'Bea Beheer heeft Piet Jansen toegevoegd', 'gelukt'],
  ]);

  // The download is in the log itself, found through 'Actie'.
  await page.getByRole('button', { name: 'Filters wissen' }).click();
  await page.getByLabel('Actie').selectOption({ label: 'Logboek gedownload' });
  await page.getByRole('button', { name: 'Filteren' }).click();
  await expect.poll(() => sentences(page)).toEqual(['Bea Beheer heeft het logboek gedownload']);

  // On a phone, the overview's row of the colleague leads to their part of the log; the menu leads back.
  await resizeTo(page, { width: 375, height: 740 });
  await page.goto(`${journey.portaal.publicUrl}/`);
  await page.getByRole('table').waitFor();
  await page.getByRole('link', { name: 'Logboek van Piet Jansen' }).click();
  await page.getByRole('heading', { level: 1, name: 'Logboek' }).waitFor();
  expect(await page.getByLabel('Persoon (e-mailadres)').inputValue()).toBe(colleague);
  // The address holds the filter: loaded again (a bookmark, a reload), the same part of the log.
  expect(new URL(page.url()).search).toBe(`?persoon=${encodeURIComponent(colleague)}`);
  expect((await page.reload())?.status()).toBe(200);
  await page.getByRole('heading', { level: 1, name: 'Logboek' }).waitFor();
  await expect
    .poll(() => sentences(page))
    .toEqual(['Bea Beheer heeft Piet Jansen geblokkeerd', 'Bea Beheer heeft Piet Jansen toegevoegd']);
  await expectScreenFits(page, "'Logboek' of one colleague on a phone");
  await openMenu(page);
  await page
    .getByRole('navigation', { name: 'Hoofdmenu' })
    .getByRole('link', { name: 'Administratie dashboard' })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Overzicht' }).waitFor();
  await resizeTo(page, { width: 1280, height: 900 });
}

const addressOf = (i: number) => `import-${RUN}-${i}@voorbeeldstad.nl`;
/** The new people of the import file who get data roles: every third, two each. */
const withDataRoles = (i: number) => i % 3 === 0;
const NEW_PEOPLE = 47;
/** The data roles the import hands out, which the access review lists after it. */
const IMPORTED_DATA_ROLES = 2 * Array.from({ length: NEW_PEOPLE }, (_, i) => i).filter(withDataRoles).length;

/** 47 new people (every third with two data roles), an invalid address, an unknown data role and a repeat. */
function importFile(): string {
  const people = Array.from(
    { length: NEW_PEOPLE },
    (_, i) =>
      `Persoon;Nummer ${i + 1};${addressOf(i + 1)};${withDataRoles(i) ? '"Sociaal domein, Financiën"' : ''};nee`,
  );
  const lines = [
    'Voornaam;Achternaam;E-mailadres;Datarollen;Beheerder',
    ...people,
    'Fout;Adres;geen-adres;;',
    `Onbekende;Rol;rol-${RUN}@voorbeeldstad.nl;Toerisme;`,
    `Dubbel;Persoon;${addressOf(1)};;`,
  ];
  const written = path.join(dir, 'collega-s.csv');
  writeFileSync(written, `${lines.join('\r\n')}\r\n`);
  return written;
}

/** 'Personen importeren': 50 people with 3 refused, the report, and the same file again changes nothing. */
async function importPeople(page: Page) {
  const csv = importFile();
  await page.getByRole('link', { name: 'Personen importeren' }).click();
  await page.getByRole('heading', { level: 1, name: 'Personen importeren' }).waitFor();
  await atBothWidths(page, () => expectScreenFits(page, "'Personen importeren' before a file"));

  // Without a file, the field says what is missing.
  await page.getByRole('button', { name: 'Controleren' }).focus();
  await page.keyboard.press('Enter');
  await page.getByText('Kies een CSV-bestand.').waitFor();

  await page.getByLabel('CSV-bestand').setInputFiles(csv);
  await page.getByRole('button', { name: 'Controleren' }).focus();
  await page.keyboard.press('Enter');
  await page.getByText('47 nieuwe accounts, 0 uitnodigingen, 0 aangevuld, 0 ongewijzigd, 3 geweigerd.').waitFor();
  const refused = page.getByRole('row').filter({ hasText: 'Geweigerd' });
  expect(await refused.allTextContents()).toEqual([
    expect.stringContaining('Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.'),
    expect.stringContaining("Datarol 'Toerisme' bestaat niet in Gemeente Voorbeeldstad."),
    expect.stringContaining('Dit e-mailadres staat ook op regel 2.'),
  ]);
  await atBothWidths(page, () => expectScreenFits(page, 'the preview of an import'));

  await page.getByRole('button', { name: 'Importeren' }).focus();
  await page.keyboard.press('Enter');
  const done = page.getByText(
    'De import is klaar: 47 accounts aangemaakt, 0 uitgenodigd, 0 aangevuld, 0 ongewijzigd, 3 geweigerd.',
  );
  await done.waitFor({ timeout: 60_000 });
  expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('De import is klaar');
  const invitation = await journey.portaal.mail.waitFor(addressOf(47));
  expect(invitation.text).toContain('Gemeente Voorbeeldstad');
  await atBothWidths(page, () => expectScreenFits(page, 'an import that is done'));

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Verslag downloaden (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^import-voorbeeldstad-\d{4}-\d\d-\d\d\.csv$/);
  const report = readFileSync(await download.path(), 'utf8')
    .split('\r\n')
    .filter(Boolean);
  expect(report).toHaveLength(51);
  expect(report.filter((line) => line.includes(';geweigerd;'))).toHaveLength(3);
  expect(report[1]).toBe(
    `2;${addressOf(1)};Persoon;Nummer 1;Sociaal domein, Financiën;nee;account aangemaakt en uitgenodigd;`,
  );

  // The same file again: nothing to do, so nothing to start.
  await page.getByRole('button', { name: 'Nog een bestand importeren' }).click();
  await page.getByLabel('CSV-bestand').setInputFiles(csv);
  await page.getByRole('button', { name: 'Controleren' }).click();
  await page.getByText('0 nieuwe accounts, 0 uitnodigingen, 0 aangevuld, 47 ongewijzigd, 3 geweigerd.').waitFor();
  expect(await page.getByRole('button', { name: 'Importeren' }).count()).toBe(0);
}

/**
 * 'Toegangsreview': a colleague's data role withdrawn with the keyboard, the rest kept; the data service of that role
 * refuses her at once, through forward authentication and through what it got from the OpenID Connect provider.
 */
async function reviewAccess(page: Page) {
  const colleague = await createColleague(journey, { first: 'Rita', last: 'Rollen' });
  // The same form as 'Gebruiker toevoegen' for an existing member: the data role is added at once.
  const added = await call(page, 'POST', '/users', {
    traits: { email: colleague.email },
    permissions: [{ namespace: 'subdivisions', object: 'sociaal-domein_voorbeeldstad', relation: 'issuer' }],
  });
  expect(added.status).toBe(200);
  const { browser } = await signInAtAal2(journey.portaal, colleague.email, colleague.password, colleague.secret);
  const { publicUrl } = journey.portaal;
  const dashboard = async () => (await browser.fetch(`${publicUrl}/api/forward-auth?service=${SERVICE}`)).status;
  expect(await dashboard()).toBe(200);

  // The same colleague signs in at the service through the portal with her session there (code flow with PKCE),
  // and the service refreshes its tokens once.
  const config = await discoverClient(publicUrl, CLIENT_ID, CLIENT_SECRET);
  const { url, verifier, state } = await authorizationRequest(config, CALLBACK);
  const callback = await followWhileOnPortal(publicUrl, browser, url.href);
  expect(callback.origin + callback.pathname).toBe(CALLBACK);
  const tokens = await client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  const { sub } = tokens.claims()!;
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
  // With the refresh token rotated the new one is the live one; otherwise the first still is.
  const refreshToken = refreshed.refresh_token ?? tokens.refresh_token!;
  expect((await client.fetchUserInfo(config, refreshed.access_token, sub)).email).toBe(colleague.email);

  await page.goto('/');
  await page.getByRole('table').waitFor();
  await page.getByRole('link', { name: 'Toegangsreview' }).click();
  await page.getByRole('heading', { level: 1, name: 'Toegangsreview' }).waitFor();
  const rita = page.getByRole('region', { name: 'Rita Rollen' });
  await rita.getByText(colleague.email).waitFor();
  await atBothWidths(page, () => expectScreenFits(page, "'Toegangsreview' before any choice"));

  // Finishing with choices open names how many (hers and those of the imported people), and moves the focus there.
  await page.getByRole('button', { name: 'Review afronden' }).click();
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
    .toContain(`nog ${IMPORTED_DATA_ROLES + 1} datarollen open`);

  // With the keyboard only: onto 'Behouden' of her role, the arrow to 'Intrekken' chooses it.
  await rita.getByRole('radio', { name: 'Behouden' }).focus();
  await page.keyboard.press('ArrowRight');
  expect(await rita.getByRole('radio', { name: 'Intrekken' }).isChecked()).toBe(true);
  await page.getByRole('button', { name: 'Overige behouden' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Review afronden' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Review afronden' });
  await atBothWidths(page, () => expectDialogFits(page, dialog, 'the confirmation of the review'));
  expect(await dialog.textContent()).toContain(
    `Je behoudt ${IMPORTED_DATA_ROLES} datarollen en trekt 1 datarol in. Het intrekken gaat direct in.`,
  );
  await dialog.getByRole('button', { name: 'Afronden' }).click();
  await page
    .getByText(`De review is afgerond: ${IMPORTED_DATA_ROLES} datarollen behouden, 1 datarol ingetrokken.`, {
      exact: true,
    })
    .waitFor();

  // At once: forward authentication refuses her, userinfo refuses the access token that worked a moment ago, and
  // the refresh token is dead; her portal session itself stays.
  expect(await dashboard()).toBe(403);
  await expect(
    client.fetchUserInfo(config, refreshed.access_token, sub),
    'userinfo refuses the access token',
  ).rejects.toMatchObject({ status: 401 });
  await expect(client.refreshTokenGrant(config, refreshToken), 'the refresh token is dead').rejects.toMatchObject({
    error: 'invalid_grant',
  });
  expect((await browser.fetch(`${publicUrl}/sessions/whoami`)).status, 'the portal session stays').toBe(200);
  await rita.waitFor({ state: 'detached' });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /^Review van .* downloaden \(CSV\)$/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^toegangsreview-voorbeeldstad-\d{4}-\d\d-\d\d\.csv$/);
  const lines = readFileSync(await download.path(), 'utf8').split('\r\n');
  expect(lines.filter((line) => line.includes(colleague.email))).toEqual([
    expect.stringMatching(/;Rita Rollen;[^;]+;Sociaal domein;[^;]+;authenticator-app;ingetrokken$/),
  ]);
  await atBothWidths(page, () => expectScreenFits(page, "'Toegangsreview' after the review"));
}

// One test: the journey's browser profiles close after each test, and the parts share the administrator's page.
describe("journey 29: an organisation administrator's day", () => {
  it('lifts a lock, reads and downloads the log, imports people, and withdraws a data role in a review', async () => {
    const { page } = await signInAsAdministrator(journey, { catalogue: CATALOGUE });
    await liftALock(page);
    await readTheLog(page);
    await importPeople(page);
    await reviewAccess(page);
  }, 240_000);
});
