import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { totpCode } from '../support/identities.js';
import { useJourney } from './support/journey.js';
import { bootstrapAdministrator, cli, DEMO_CATALOGUE, linkFromMail } from './support/pages.js';

const journey = useJourney();

/** What has the focus: its role-ish tag, its accessible label, and whether a focus ring is drawn. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { name: '', ring: false };
    const labelled = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined;
    const name = (element.getAttribute('aria-label') ?? labelled ?? element.textContent ?? '').trim();
    const style = getComputedStyle(element);
    const ring =
      element.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    return { name, ring };
  });
}

/** Presses Tab until the element named `name` has the focus; returns the names passed on the way. */
async function tabTo(page: Page, name: string, limit = 40): Promise<string[]> {
  const passed: string[] = [];
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    passed.push(now.name);
    if (now.name === name) {
      expect(now.ring, `focus ring on '${name}'`).toBe(true);
      return passed;
    }
  }
  throw new Error(`'${name}' not reached with Tab; passed: ${passed.join(' → ')}`);
}

/** Links the app on /settings/2fa-app (the key read off the screen, the code typed), keeps backup codes, goes on. */
async function linkAppByKeyboard(page: Page) {
  await page.waitForURL((url) => url.pathname === '/settings/2fa-app');
  // Shown in groups of four, typed into the app without the spaces.
  const secret = (await page.locator('#totp_secret_key code').innerText()).replace(/\s+/g, '');
  await tabTo(page, 'Code controleren');
  // The current step's code: it stays valid through the next step (the server's tolerance), however slow the typing
  // on a loaded machine; the previous step's code ran out within seconds there once.
  await page.keyboard.type(await totpCode(secret));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Je authenticator-app is gekoppeld' }).waitFor();
  await tabTo(page, 'Nieuwe back-upcodes maken');
  await page.keyboard.press('Enter');
  await page.locator('#lookup_secret_codes').waitFor();
  await tabTo(page, 'Back-upcodes bevestigen');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Back-upcodes bevestigen' }).waitFor({ state: 'detached' });
  await tabTo(page, 'Verder naar het portaal');
  await page.keyboard.press('Enter');
}

describe('journey 13: keyboard only', () => {
  it('the first administrator signs in, links an app, keeps backup codes, adds a colleague, mouse-free', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const admin = { email: 'toetsenbord@voorbeeldstad.nl', password: 'Toetsen-Bord-Muis-Loos-6' };
    bootstrapAdministrator(journey.portaal, admin.email, admin.password);
    const page = await journey.person('toetsenbord');

    await page.goto('/admin-login');
    await page.getByLabel('E-mailadres').waitFor();
    // First the way past the header to the content, then the form.
    expect(await tabTo(page, 'E-mailadres')).toEqual(['Naar de inhoud', 'E-mailadres']);
    await page.keyboard.type(admin.email);
    expect(await tabTo(page, 'Wachtwoord')).toEqual(['Wachtwoord']);
    await page.keyboard.type(admin.password);
    await page.keyboard.press('Enter');

    await linkAppByKeyboard(page);
    await page.getByRole('table').waitFor();

    // The new-user dialog: focus goes in, the e-mail check runs on leaving the field, Escape returns the focus.
    await tabTo(page, 'Nieuwe gebruiker toevoegen');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await dialog.waitFor();
    // react-aria moves the focus in after the dialog is mounted, so the dialog can be there a frame before the focus.
    await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).name).toBe('Nieuwe gebruiker toevoegen');

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    const inDialog = await tabTo(page, 'E-mailadres');
    expect(inDialog.length).toBeLessThanOrEqual(2);
    await page.keyboard.type('toetsen.collega@voorbeeldstad.nl');
    await tabTo(page, 'Voornaam');
    await dialog.getByText('E-mailadres is nog niet in gebruik.').waitFor();
    await page.keyboard.type('Kees');
    await tabTo(page, 'Achternaam');
    await page.keyboard.type('Toets');
    await tabTo(page, 'Ruimte en wonen');
    await page.keyboard.press('Space');
    // The focus stays trapped in the dialog: tabbing on from the last button comes back to its first field.
    const round = await tabTo(page, 'E-mailadres');
    expect(round).toContain('Toevoegen');
    expect(round).not.toContain('Zoek gebruiker');
    await tabTo(page, 'Toevoegen');
    await page.keyboard.press('Enter');
    await page.getByText('Nieuwe gebruiker aangemaakt').waitFor();
    await page.getByRole('cell', { name: 'toetsen.collega@voorbeeldstad.nl' }).waitFor();
    await expect.poll(async () => (await focused(page)).name).toBe('Nieuwe gebruiker toevoegen');

    // The colleague follows the invitation and sets up the account, also by keyboard.
    const colleague = await journey.person('collega met toetsenbord');
    await colleague.goto(await linkFromMail(journey.portaal, 'toetsen.collega@voorbeeldstad.nl'));
    await colleague.getByLabel('Nieuw wachtwoord', { exact: true }).waitFor();
    await tabTo(colleague, 'Nieuw wachtwoord');
    await colleague.keyboard.type('Sleutelbos-Zonder-Muis-12');
    await tabTo(colleague, 'Wachtwoord bevestigen');
    await colleague.keyboard.type('Sleutelbos-Zonder-Muis-12');
    await colleague.keyboard.press('Enter');
    await linkAppByKeyboard(colleague);
    await colleague.getByRole('heading', { name: 'Datavoorzieningen', level: 1 }).waitFor();
  });
});
