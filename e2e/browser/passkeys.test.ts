import { describe, expect, it } from 'vitest';
import type { CDPSession, Locator, Page } from 'playwright-core';
import { useJourney } from './support/journey.js';
import { expectInsideWindow, expectNoSidewaysScroll } from './support/layout.js';
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
import { sidebar, signOut } from './support/people.js';

// Issue 18 in Chromium with its virtual authenticator (DevTools' WebAuthn domain): a passkey added in the settings
// signs in by autofill and by the button, a security key answers the second step, the counter rises, and the
// screens are accessible, usable by keyboard and fit a phone. The virtual authenticator answers a conditional
// (autofill) request at once when it holds a passkey for the site, and refuses it when it holds none.

const journey = useJourney();

interface Authenticator {
  cdp: CDPSession;
  id: string;
  /** The sign counter of each credential it holds. */
  counters(): Promise<number[]>;
}

/** A platform authenticator with user verification (a phone or laptop with a fingerprint), or a USB security key. */
async function virtualAuthenticator(page: Page, kind: 'passkey' | 'security-key'): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options:
      kind === 'passkey'
        ? {
            protocol: 'ctap2',
            transport: 'internal',
            hasResidentKey: true,
            hasUserVerification: true,
            isUserVerified: true,
            automaticPresenceSimulation: true,
          }
        : {
            protocol: 'ctap2',
            transport: 'usb',
            hasResidentKey: false,
            hasUserVerification: false,
            automaticPresenceSimulation: true,
          },
  });
  return {
    cdp,
    id: authenticatorId,
    async counters() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials.map((credential) => credential.signCount);
    },
  };
}

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
  authenticator_assurance_level: string;
  authentication_methods: string[];
  aal2Required: boolean;
  secondFactorMet: boolean;
}

const usersApiWhoami = (page: Page) =>
  page.evaluate(() => fetch('/api/users/whoami').then((response) => response.json() as Promise<Whoami>));
const kratosWhoami = (page: Page) =>
  page.evaluate(() =>
    fetch('/sessions/whoami').then(
      (response) =>
        response.json() as Promise<{
          authenticator_assurance_level: string;
          authentication_methods: { method: string }[];
        }>,
    ),
  );

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
    await page.setViewportSize({ width, height: 900 });
    const where = `${state} at ${width} px`;
    await expectNoSidewaysScroll(page, where);
    await expectInsideWindow(page, section.locator('button, input:not([type="hidden"]), a, [role="status"] p'), where);
  }
}

describe('journey 20: passkeys and security keys', () => {
  it('adds a passkey in the settings, then signs in with it by autofill and by the button; the counter rises', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    // Voorbeeldstad requires a second factor: the passkey alone must be enough for the portal.
    const colleague = await createColleague(journey, { first: 'Pia' });
    const page = await journey.person('laptop');
    const authenticator = await virtualAuthenticator(page, 'passkey');
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
    await keysSection(page).getByRole('heading', { name: 'Maak ook back-upcodes' }).waitFor();
    await expectAccessible(page, 'the settings with a passkey and the offer of backup codes');
    await expectFits(page, keysSection(page), 'the settings with a passkey');
    const [registered] = await authenticator.counters();

    // Autofill: the sign-in screen asks for a passkey for the e-mail field, and the authenticator answers it.
    await signOut(page).catch(() => undefined);
    await page.waitForURL((url) => url.pathname === '/permissies');
    let whoami = await usersApiWhoami(page);
    expect(whoami).toMatchObject({
      authentication_methods: ['passkey'],
      authenticator_assurance_level: 'aal1',
      aal2Required: true,
      secondFactorMet: true,
    });
    expect((await kratosWhoami(page)).authentication_methods.map((m) => m.method)).toEqual(['passkey']);
    const [afterAutofill] = await authenticator.counters();
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
    const [afterButton] = await authenticator.counters();
    expect(afterButton).toBeGreaterThan(afterAutofill!);
  });

  it('answers the second step with a security key, shows the kinds to the administrator, and resets them', async () => {
    const admin = await signInAsAdministrator(journey);
    const colleague = await createColleague(journey, { first: 'Sem' });
    const page = await journey.person('sleutel');
    const authenticator = await virtualAuthenticator(page, 'security-key');
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!);
    await page.waitForURL((url) => url.pathname === '/permissies');

    await sidebar(page).getByRole('link', { name: 'Account instellingen' }).click();
    // A name first: without one the portal asks for it and the browser is not asked.
    await keysSection(page).getByRole('button', { name: 'Beveiligingssleutel toevoegen' }).click();
    await keysSection(page).getByText('Geef de beveiligingssleutel een naam, zodat je hem later herkent.').waitFor();
    await expectAccessible(page, 'the settings asking for the name of the key');
    expect(await authenticator.counters()).toEqual([]);
    await keysSection(page).getByLabel('Naam van de beveiligingssleutel').fill('YubiKey werk');
    await pressByKeyboard(page, keysSection(page).getByRole('button', { name: 'Beveiligingssleutel toevoegen' }));
    await keysSection(page).getByText('Beveiligingssleutel "YubiKey werk" is toegevoegd.').waitFor();
    const [item] = await keyList(page).getByRole('listitem').allInnerTexts();
    expect(item).toContain('YubiKey werk');
    expect(item).toMatch(/Beveiligingssleutel, toegevoegd op \d{1,2} [a-z]+ \d{4}/);
    await expectAccessible(page, 'the settings with a security key');
    await expectFits(page, keysSection(page), 'the settings with a security key');
    const [registered] = await authenticator.counters();

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
    const [afterSignIn] = await authenticator.counters();
    expect(afterSignIn).toBeGreaterThan(registered!);

    // The administrator sees the kinds of factor, and 'Reset 2FA' removes the key with the app.
    await admin.page.reload();
    const row = rowOf(admin.page, colleague.email);
    await row.getByText('Tweede factor: authenticator-app, beveiligingssleutel').waitFor();
    await row.getByRole('button', { name: `Reset 2FA: ${colleague.name}` }).click();
    await admin.page.getByRole('dialog').getByRole('button', { name: 'Resetten' }).click();
    await row.getByText('Geen tweede factor').waitFor();
  });
});
