import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signInAtAal2 } from '../support/portal-users.js';
import { addVirtualAuthenticator, type VirtualAuthenticator } from '../support/virtual-authenticator.js';
import { useJourney } from './support/journey.js';
import { expectInsideWindow, expectNoSidewaysScroll, resizeTo } from './support/layout.js';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  enterTotpCode,
  expectAccessible,
  bootstrapAdministrator,
  rowOf,
  signInWithPassword,
} from './support/pages.js';
import { sidebar, signOut } from './support/people.js';

// Issue 18 in Chromium with its virtual authenticator (DevTools' WebAuthn domain): a passkey added in the settings
// signs in by autofill and by the button, a security key answers the second step, the counter rises, and the
// screens are accessible, usable by keyboard and fit a phone. The virtual authenticator answers a conditional
// (autofill) request at once when it holds a passkey for the site, and refuses it when it holds none.

// WebAuthn needs a host name as relying party (browsers refuse an IP address): the portal's public URL is
// `localhost` here, on the port it chose as it started, and every page uses that address.
const onLocalhost = (address: string) => address.replace('//127.0.0.1:', '//localhost:');
const journey = useJourney({ env: (portal) => ({ PUBLIC_URL: onLocalhost(portal) }) });
const person = (label: string) => journey.person(label, { baseURL: onLocalhost(journey.portaal.publicUrl) });

/** A phone or laptop holding passkeys (user verification), or a USB security key (no PIN, not discoverable). */
const authenticatorFor = (page: Page, kind: 'passkey' | 'security-key') =>
  addVirtualAuthenticator(
    page,
    kind === 'passkey' ? {} : { transport: 'usb', residentKey: false, userVerification: false },
  );

/** The signature counter of each key the authenticator holds. */
const countersOf = async (authenticator: VirtualAuthenticator) =>
  (await authenticator.credentials()).map((credential) => credential.signCount);

/**
 * The person leaves the e-mail field's passkey suggestion alone: conditional requests of this page wait until the
 * page stops them (by the button's request), as a browser's autofill waits for a choice.
 */
async function ignoreSuggestions(page: Page) {
  await page.addInitScript(() => {
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) =>
      options?.mediation === 'conditional'
        ? new Promise((_, reject) =>
            options.signal?.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError'))),
          )
        : get(options);
  });
}

const keysSection = (page: Page) => page.getByRole('region', { name: 'Beveiligingssleutels en passkeys' });
const keyList = (page: Page) => keysSection(page).getByRole('list', { name: 'Je beveiligingssleutels en passkeys' });

interface Whoami {
  identity: { credentials: string[] };
  authenticator_assurance_level: string;
  authentication_methods: string[];
  aal2Required: boolean;
  secondFactorMet: boolean;
}

const usersApiWhoami = (page: Page) =>
  page.evaluate(() => fetch('/api/users/whoami').then((response) => response.json() as Promise<Whoami>));
/** The provider's own `/sessions/whoami`: its status and body. */
const kratosWhoami = (page: Page) =>
  page.evaluate(async () => {
    const response = await fetch('/sessions/whoami');
    return {
      status: response.status,
      body: (await response.json()) as {
        authenticator_assurance_level?: string;
        authentication_methods?: { method: string }[];
        error?: { id: string };
      },
    };
  });

/** Presses a control with the keyboard only: Tab until it has the focus (at most 60 steps), then Enter. */
async function pressByKeyboard(page: Page, control: Locator) {
  for (let step = 0; step < 60; step++) {
    if (await control.evaluate((element) => element === document.activeElement)) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error('the control was not reached with Tab');
}

/** The screen at a phone's and a laptop's width: no sideways scrolling, the section's controls and messages inside. */
async function expectFits(page: Page, section: Locator, state: string) {
  for (const width of [375, 1280]) {
    await resizeTo(page, { width, height: 900 });
    const where = `${state} at ${width} px`;
    await expectNoSidewaysScroll(page, where);
    await expectInsideWindow(page, section.locator('button, input:not([type="hidden"]), a, [role="status"] p'), where);
  }
}

describe('journey 22: passkeys and security keys', () => {
  it('adds a passkey in the settings, signs in with it by autofill and by the button; the counter rises', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    // Voorbeeldstad requires a second factor: the passkey alone must be enough for the portal.
    const colleague = await createColleague(journey, { first: 'Pia' });
    const page = await person('laptop');
    const authenticator = await authenticatorFor(page, 'passkey');
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!);
    await page.waitForURL((url) => url.pathname === '/permissies');

    await sidebar(page).getByRole('link', { name: 'Account instellingen' }).click();
    await keysSection(page).getByText('Je hebt nog geen beveiligingssleutels of passkeys.').waitFor();
    await expectAccessible(page, 'the settings without keys');
    await pressByKeyboard(page, keysSection(page).getByRole('button', { name: 'Passkey toevoegen' }));
    const added = keysSection(page).getByText('Je passkey is toegevoegd. Je kunt er voortaan mee inloggen.');
    await added.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('status');
    const items = await keyList(page).getByRole('listitem').allInnerTexts();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatch(/Passkey, toegevoegd op \d{1,2} [a-z]+ \d{4}/);
    // The name the portal proposed from this browser and system, never 'Zonder naam'.
    expect(items[0]).toMatch(/^Passkey op \S.*\n/);
    expect(items[0]).not.toContain('Zonder naam');
    await keysSection(page).getByRole('heading', { name: 'Maak ook back-upcodes' }).waitFor();
    await expectAccessible(page, 'the settings with a passkey and the offer of backup codes');
    await expectFits(page, keysSection(page), 'the settings with a passkey');
    const [registered] = await countersOf(authenticator);

    // Autofill: the sign-in screen asks for a passkey for the e-mail field, and the authenticator answers it.
    // Signing out ends on the sign-in screen, where the autofill signs in again without a click.
    await sidebar(page).getByRole('link', { name: 'Uitloggen', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.waitForURL((url) => url.pathname === '/permissies');
    let whoami = await usersApiWhoami(page);
    expect(whoami).toMatchObject({
      authentication_methods: ['passkey'],
      authenticator_assurance_level: 'aal1',
      aal2Required: true,
      secondFactorMet: true,
    });
    // The provider's level stays as Kratos computes it: aal1, and its whoami asks for the second factor (the
    // person has an app); the Users API alone decides that the passkey meets the portal's policy.
    const provider = await kratosWhoami(page);
    expect([provider.status, provider.body.error?.id]).toEqual([403, 'session_aal2_required']);
    const [afterAutofill] = await countersOf(authenticator);
    expect(afterAutofill).toBeGreaterThan(registered!);

    // The button, with the suggestion left alone; by keyboard only.
    await ignoreSuggestions(page);
    await signOut(page);
    const button = page.getByRole('button', { name: 'Inloggen met een passkey' });
    await expectAccessible(page, 'the sign-in screen with the passkey button');
    await expectFits(page, page.getByRole('main'), 'the sign-in screen with the passkey button');
    expect(await page.getByLabel('E-mailadres').getAttribute('autocomplete')).toBe('username webauthn');
    await pressByKeyboard(page, button);
    await page.waitForURL((url) => url.pathname === '/permissies');
    whoami = await usersApiWhoami(page);
    expect(whoami.authentication_methods).toEqual(['passkey']);
    const [afterButton] = await countersOf(authenticator);
    expect(afterButton).toBeGreaterThan(afterAutofill!);
  });

  it('answers the second step with a security key, shows the kinds to the administrator, and resets them', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const adminEmail = 'beheerder-sleutels@voorbeeldstad.nl';
    bootstrapAdministrator(journey.portaal, adminEmail, 'Kade-Brug-Sluis-Molen-93');
    const { secret: adminSecret } = await signInAtAal2(journey.portaal, adminEmail, 'Kade-Brug-Sluis-Molen-93');
    const colleague = await createColleague(journey, { first: 'Sem' });
    const page = await person('sleutel');
    const authenticator = await authenticatorFor(page, 'security-key');
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!);
    await page.waitForURL((url) => url.pathname === '/permissies');

    await sidebar(page).getByRole('link', { name: 'Account instellingen' }).click();
    // A name first: without one the portal asks for it and the browser is not asked.
    await keysSection(page).getByRole('button', { name: 'Beveiligingssleutel toevoegen' }).click();
    await keysSection(page).getByText('Geef de beveiligingssleutel een naam, zodat je hem later herkent.').waitFor();
    await expectAccessible(page, 'the settings asking for the name of the key');
    expect(await countersOf(authenticator)).toEqual([]);
    await keysSection(page).getByLabel('Naam van de beveiligingssleutel').fill('YubiKey werk');
    await pressByKeyboard(page, keysSection(page).getByRole('button', { name: 'Beveiligingssleutel toevoegen' }));
    await keysSection(page).getByText('Beveiligingssleutel "YubiKey werk" is toegevoegd.').waitFor();
    // Whether it is synced comes from the stored credential (the Users API): a USB key is not.
    await keyList(page)
      .getByText(/niet gesynchroniseerd/)
      .waitFor();
    const [item] = await keyList(page).getByRole('listitem').allInnerTexts();
    expect(item).toContain('YubiKey werk');
    expect(item).toMatch(/Beveiligingssleutel, toegevoegd op \d{1,2} [a-z]+ \d{4}/);
    await expectAccessible(page, 'the settings with a security key');
    await expectFits(page, keysSection(page), 'the settings with a security key');
    const [registered] = await countersOf(authenticator);

    // Password, then the key instead of the app's code.
    await signOut(page);
    await signInWithPassword(page, colleague.email, colleague.password);
    const key = page.getByRole('button', { name: 'Gebruik je beveiligingssleutel' });
    await key.waitFor();
    await page.getByLabel('Verificatiecode').waitFor();
    await expectAccessible(page, 'the second step with a security key');
    await expectFits(page, page.getByRole('main'), 'the second step with a security key');
    await pressByKeyboard(page, key);
    await page.waitForURL((url) => url.pathname === '/permissies');
    expect(await usersApiWhoami(page)).toMatchObject({
      authentication_methods: ['password', 'webauthn'],
      authenticator_assurance_level: 'aal2',
      secondFactorMet: true,
    });
    const provider = await kratosWhoami(page);
    expect(provider.status).toBe(200);
    expect(provider.body.authentication_methods?.map((m) => m.method)).toEqual(['password', 'webauthn']);
    const [afterSignIn] = await countersOf(authenticator);
    expect(afterSignIn).toBeGreaterThan(registered!);

    // The administrator sees the kinds of factor, and 'Reset 2FA' removes the key with the app.
    const admin = await person('beheerder');
    await signInWithPassword(admin, adminEmail, 'Kade-Brug-Sluis-Molen-93', '/admin-login');
    await enterTotpCode(admin, adminSecret);
    const row = rowOf(admin, colleague.email);
    await row.getByText('Tweede factor: authenticator-app, beveiligingssleutel').waitFor();
    await row.getByRole('button', { name: `Reset 2FA: ${colleague.name}` }).click();
    await admin.getByRole('alertdialog', { name: '2FA Resetten' }).getByRole('button', { name: 'Resetten' }).click();
    await row.getByText('Geen tweede factor').waitFor();
  });

  it('enrols a passkey instead of an app, signs in again with it, refuses a second one, removes it', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { first: 'Lot', withApp: false });
    const page = await person('telefoon');
    const authenticator = await authenticatorFor(page, 'passkey');
    await signInWithPassword(page, colleague.email, colleague.password);
    // Voorbeeldstad requires a second factor: the enrolment screen offers passkeys beside the app.
    await page.waitForURL((url) => url.pathname === '/settings/2fa-app');
    await expectAccessible(page, 'the enrolment screen with passkeys');
    await pressByKeyboard(page, keysSection(page).getByRole('button', { name: 'Passkey toevoegen' }));
    await keysSection(page).getByText('Je passkey is toegevoegd. Je kunt er voortaan mee inloggen.').waitFor();
    const again = page.getByRole('link', {
      name: 'Ga verder met je passkey of beveiligingssleutel',
    });
    await expectAccessible(page, 'the enrolment screen after adding a passkey');
    await pressByKeyboard(page, again);
    // Still signed in: the session is confirmed with the passkey alone (a password would not meet the policy).
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('refresh') === 'true');
    await page.getByText('Bevestig met je passkey dat jij het bent om verder te gaan.', { exact: false }).waitFor();
    expect(await page.getByText('Je bent ingelogd als').textContent()).toBe(`Je bent ingelogd als ${colleague.email}.`);
    expect(await page.getByLabel('Wachtwoord').count()).toBe(0);
    await expectAccessible(page, 'the confirmation with a passkey');
    await expectFits(page, page.getByRole('main'), 'the confirmation with a passkey');
    await pressByKeyboard(page, page.getByRole('button', { name: 'Inloggen met een passkey' }));
    await page.waitForURL((url) => url.pathname === '/permissies');
    expect(await usersApiWhoami(page)).toMatchObject({
      secondFactorMet: true,
      aal2Required: true,
      authentication_methods: ['password', 'passkey'],
    });
    expect(await countersOf(authenticator)).toHaveLength(1);

    // The same authenticator again: it refuses a second passkey for this account, and the portal says so.
    await sidebar(page).getByRole('link', { name: 'Account instellingen' }).click();
    await keyList(page).getByRole('listitem').first().waitFor();
    await pressByKeyboard(page, keysSection(page).getByRole('button', { name: 'Passkey toevoegen' }));
    await keysSection(page)
      .getByRole('alert')
      .getByText('Deze beveiligingssleutel of passkey heb je al toegevoegd. Kies een andere.')
      .waitFor();
    await expectAccessible(page, 'the settings after a refused second passkey on one authenticator');
    await expectFits(page, keysSection(page), 'the settings after a refused passkey');
    // Removing it, by keyboard; the password remains a way to sign in.
    // The passkey has the name the enrolment screen proposed ('Passkey op Chrome op Linux'), not 'Zonder naam'.
    const named = await keyList(page).locator('.dvp-key__name').innerText();
    expect(named).toMatch(/^Passkey op \S/);
    expect(await keyList(page).getByText('Zonder naam').count()).toBe(0);
    await pressByKeyboard(
      page,
      keysSection(page).getByRole('button', { name: `Passkey "${named}" verwijderen`, exact: true }),
    );
    // It cannot be undone, so the portal asks first; the question fits the screen and is accessible.
    const question = page.getByRole('alertdialog', { name: 'Passkey verwijderen' });
    await question.getByText('Dit kun je niet ongedaan maken.').waitFor();
    await expectAccessible(page, 'the question before removing the passkey');
    await pressByKeyboard(page, question.getByRole('button', { name: 'Verwijderen', exact: true }));
    await keysSection(page).getByText(`Passkey "${named}" is verwijderd.`, { exact: true }).waitFor();
    await keysSection(page).getByText('Je hebt nog geen beveiligingssleutels of passkeys.').waitFor();
    await expectAccessible(page, 'the settings after removing the passkey');
    expect((await usersApiWhoami(page)).identity.credentials).toEqual(['password']);
  });
});
