import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useJourney } from './support/journey.js';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  enterTotpCode,
  expectAccessible,
  signInWithPassword,
} from './support/pages.js';
import { descriptionOf, sidebar, signOut } from './support/people.js';
import { atBothWidths } from './support/layout.js';
import { expectSettingsLayout } from './support/settings-layout.js';

const journey = useJourney();

/** The settings form's Dutch messages, byte for byte (typos included). */
const MESSAGES = {
  nothingChanged: 'Geen van de velden is aangepast.',
  nameTooShort: 'Naam is te kort.',
  nameTooLong: 'Naam te is lang.',
  email: 'Het e-mailadres veld is niet herkend als e-mailadres.',
  passwordTooShort: 'Het nieuwe wachtwoord bevat geen 8 tekens.',
  confirmRequired: '"Wachtwoord bevestigen" is een verplicht veld.',
  mismatch: 'Wachtwoorden komen niet overeen.',
};

const fields = (page: Page) => ({
  first: page.getByLabel('Naam', { exact: true }),
  last: page.getByLabel('Achternaam', { exact: true }),
  email: page.getByLabel('E-mailadres', { exact: true }),
  password: page.getByLabel('Nieuw wachtwoord', { exact: true }),
  confirm: page.getByLabel('Wachtwoord bevestigen', { exact: true }),
});

/**
 * Waits until the message shows in the field's own form field, then checks that the field is marked invalid and that
 * its description, as assistive technology reads it, ends with that message.
 */
async function expectFieldError(field: Locator, message: string) {
  await field
    .page()
    .locator('.utrecht-form-field')
    .filter({ has: field })
    .getByText(message, { exact: true })
    .waitFor();
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  const description = await descriptionOf(field);
  expect(
    description === message || description.endsWith(` | ${message}`),
    `description of the field: ${description}`,
  ).toBe(true);
}

/**
 * The error summary at the top of a section's form ('Account instelling wijzigen' or 'Wachtwoord aanpassen') has the
 * focus and lists these problems, in the order of the fields.
 */
async function expectSummary(page: Page, messages: string[], section = 'Account instelling wijzigen') {
  const summary = page
    .getByRole('region', { name: section, exact: true })
    .getByRole('alert', { name: 'Controleer de volgende velden:' });
  await summary.waitFor();
  await page.waitForFunction(
    ([name, expected]) => {
      const heading = Array.from(document.querySelectorAll('h2')).find((h) => h.textContent === name);
      const items = Array.from(
        heading?.closest('section')?.querySelectorAll('[role="alert"] li') ?? [],
        (item) => item.textContent,
      );
      return JSON.stringify(items) === JSON.stringify(expected);
    },
    [section, messages] as const,
  );
  expect(await summary.evaluate((element) => element === document.activeElement)).toBe(true);
}

async function expectNoFieldError(field: Locator) {
  expect(await field.getAttribute('aria-invalid')).toBeNull();
}

describe('journey 7: account settings', () => {
  it('shows every settings form message, changes the name and, with the show/hide toggles, the password', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { first: 'Sanne' });
    const newPassword = 'Ophaalbrug-Kermis-Zuid-27';
    const page = await journey.person('collega');
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!, 0);
    await page.waitForURL((url) => url.pathname === '/permissies');

    await sidebar(page).getByRole('link', { name: 'Account instellingen' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByRole('heading', { name: 'Account instellingen', level: 1 }).waitFor();
    const field = fields(page);
    await page.getByRole('button', { name: 'Bewerkingen opslaan' }).and(page.locator(':enabled')).waitFor();
    // The current values in the fields' descriptions, not as placeholders (they read as values filled in).
    expect(await descriptionOf(field.first)).toBe('Nu: Sanne');
    expect(await descriptionOf(field.last)).toBe('Nu: Collega');
    expect(await descriptionOf(field.email)).toBe(`Nu: ${colleague.email}`);
    await page.getByText('Het wachtwoord moet minimaal 8 tekens zijn.', { exact: true }).waitFor();
    const status = page.getByRole('list', { name: 'Status van je twee-factor-authenticatie' });
    expect(await status.getByRole('listitem').allInnerTexts()).toEqual([
      'Authenticator-app: ingesteld',
      'Back-upcodes: niet ingesteld',
      'Beveiligingssleutel of passkey: niet ingesteld',
    ]);
    await atBothWidths(page, () => expectSettingsLayout(page, 'settings'));
    const save = page.getByRole('button', { name: 'Bewerkingen opslaan' });
    const savePassword = page.getByRole('button', { name: 'Wachtwoord opslaan' });

    // Nothing filled in, in either section.
    await save.click();
    await page.getByText(MESSAGES.nothingChanged, { exact: true }).waitFor();
    await expectSummary(page, [MESSAGES.nothingChanged]);
    await expectAccessible(page, 'settings with nothing changed');
    await savePassword.click();
    await expectSummary(page, [MESSAGES.nothingChanged], 'Wachtwoord aanpassen');

    // A name too short, a surname too long and an address that is none, at once; then a password too short.
    await field.first.fill('S');
    await field.last.fill('C'.repeat(51));
    await field.email.fill('sanne-at-voorbeeldstad');
    await save.click();
    await expectFieldError(field.first, MESSAGES.nameTooShort);
    await expectFieldError(field.last, MESSAGES.nameTooLong);
    await expectFieldError(field.email, MESSAGES.email);
    const profile = page.getByRole('region', { name: 'Account instelling wijzigen', exact: true });
    expect(await profile.getByText(MESSAGES.nothingChanged, { exact: true }).count()).toBe(0);
    await expectSummary(page, [MESSAGES.nameTooShort, MESSAGES.nameTooLong, MESSAGES.email]);
    await field.password.fill('kort12');
    await savePassword.click();
    await expectFieldError(field.password, MESSAGES.passwordTooShort);
    await expectFieldError(field.confirm, MESSAGES.confirmRequired);
    await expectSummary(page, [MESSAGES.passwordTooShort, MESSAGES.confirmRequired], 'Wachtwoord aanpassen');
    await expectAccessible(page, 'settings with validation messages on names, address and password');
    await atBothWidths(page, () => expectSettingsLayout(page, 'settings with validation messages'));

    // The other way round: a first name too long, a surname too short.
    await field.first.fill('S'.repeat(51));
    await field.last.fill('C');
    await field.email.fill('');
    await field.password.fill('');
    await save.click();
    await expectFieldError(field.first, MESSAGES.nameTooLong);
    await expectFieldError(field.last, MESSAGES.nameTooShort);
    await expectNoFieldError(field.email);
    await expectNoFieldError(field.password);
    await expectAccessible(page, 'settings with validation messages on both names');

    // A new password without its confirmation, then with a different one.
    await field.first.fill('');
    await field.last.fill('');
    await field.password.fill(newPassword);
    await savePassword.click();
    await expectFieldError(field.confirm, MESSAGES.confirmRequired);
    await expectNoFieldError(field.password);
    await expectAccessible(page, 'settings with the confirmation missing');
    await field.confirm.fill(`${newPassword}x`);
    await savePassword.click();
    await expectFieldError(field.confirm, MESSAGES.mismatch);
    await expectSummary(page, [MESSAGES.mismatch], 'Wachtwoord aanpassen');
    await expectAccessible(page, 'settings with passwords that differ');

    // The name alone.
    await field.first.fill('Saskia');
    await save.click();
    await page.getByRole('status').filter({ hasText: 'Je gegevens zijn aangepast.' }).waitFor();
    await sidebar(page).getByText('Saskia Collega', { exact: true }).waitFor();
    expect(await sidebar(page).getByText('Sanne Collega', { exact: true }).count()).toBe(0);
    expect(await field.first.inputValue()).toBe('');
    expect(await descriptionOf(field.first)).toBe('Nu: Saskia');
    await expectAccessible(page, 'settings after the name change');

    // The password, looked at with the show/hide toggles before saving.
    await field.password.fill(newPassword);
    await field.confirm.fill(newPassword);
    for (const [input, label] of [
      [field.password, 'nieuw wachtwoord'],
      [field.confirm, 'wachtwoord bevestigen'],
    ] as const) {
      expect(await input.getAttribute('type')).toBe('password');
      await page.getByRole('button', { name: `Toon ${label}`, exact: true }).click();
      const hide = page.getByRole('button', { name: `Verberg ${label}`, exact: true });
      await hide.waitFor();
      expect(await input.getAttribute('type')).toBe('text');
      expect(await hide.getAttribute('aria-pressed')).toBe('true');
      expect(await input.inputValue()).toBe(newPassword);
    }
    await expectAccessible(page, 'settings with both passwords shown');
    await page.getByRole('button', { name: 'Verberg nieuw wachtwoord', exact: true }).click();
    await page.getByRole('button', { name: 'Toon nieuw wachtwoord', exact: true }).waitFor();
    expect(await field.password.getAttribute('type')).toBe('password');
    expect(await field.confirm.getAttribute('type')).toBe('text');
    expect(
      await page.getByRole('button', { name: 'Toon nieuw wachtwoord', exact: true }).getAttribute('aria-pressed'),
    ).toBe('false');
    await savePassword.click();
    await page
      .getByRole('region', { name: 'Wachtwoord aanpassen', exact: true })
      .getByRole('status')
      .filter({ hasText: 'Je gegevens zijn aangepast.' })
      .waitFor();
    expect(await field.password.inputValue()).toBe('');
    expect(await field.confirm.inputValue()).toBe('');
    await expectAccessible(page, 'settings after the password change');

    // Signing in again: the old password is refused, the new one works, and the new name stays.
    await signOut(page);
    await signInWithPassword(page, colleague.email, colleague.password);
    await page
      .getByText(
        'Het e-mailadres of wachtwoord klopt niet. Controleer ze en probeer het opnieuw. ' +
          'Na te veel mislukte pogingen is je account een tijdje geblokkeerd.',
        { exact: true },
      )
      .waitFor();
    await signInWithPassword(page, colleague.email, newPassword);
    await page.getByLabel('Verificatiecode').waitFor();
    await enterTotpCode(page, colleague.secret!, 1);
    await page.waitForURL((url) => url.pathname === '/permissies');
    await sidebar(page).getByText('Saskia Collega', { exact: true }).waitFor();
  });
});
