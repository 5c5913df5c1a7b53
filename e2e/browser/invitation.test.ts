import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import {
  enrolAuthenticator,
  enterTotpCode,
  expectAccessible,
  linkFromMail,
  signInAsAdministrator,
  signInWithPassword,
} from './support/pages.js';

const journey = useJourney();

describe('journey 2: an administrator invites a new colleague', () => {
  it('creates a user with data roles, who follows the mail, sets a password, links an app, sees services', async () => {
    const admin = await signInAsAdministrator(journey);
    const { page } = admin;
    const colleague = { email: 'nieuwe.collega@voorbeeldstad.nl', password: 'Fietsenstalling-Regen-88' };

    await page.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
    await dialog.getByLabel('E-mailadres').fill(colleague.email);
    await dialog.getByLabel('Voornaam').focus();
    await dialog.getByText('E-mailadres is nog niet in gebruik.').waitFor();
    await dialog.getByLabel('Voornaam').fill('Noor');
    await dialog.getByLabel('Achternaam').fill('de Vries');
    await dialog.getByLabel('Sociaal domein').check();
    await dialog.getByLabel('Ruimte en wonen').check();
    await expectAccessible(page, 'new-user dialog');
    const sent = new Date();
    await dialog.getByRole('button', { name: 'Toevoegen' }).click();
    await page.getByText('Nieuwe gebruiker aangemaakt').waitFor();
    await page.getByRole('cell', { name: colleague.email }).waitFor();

    const invitation = await linkFromMail(journey.portaal, colleague.email, sent);
    const newcomer = await journey.person('nieuwe collega');
    await newcomer.goto(invitation);
    // A welcome, not the recovery's 'Je account is hersteld': the invitation is a recovery link.
    await newcomer
      .getByRole('status')
      .filter({ hasText: /^Welkom! Kies binnen \d+ minuten een wachtwoord/ })
      .waitFor();
    expect(await newcomer.getByText('Je account is hersteld', { exact: false }).count()).toBe(0);
    await newcomer.getByLabel('Nieuw wachtwoord', { exact: true }).fill(colleague.password);
    await newcomer.getByLabel('Wachtwoord bevestigen', { exact: true }).fill(colleague.password);
    await expectAccessible(newcomer, 'choose a password after the invitation');
    await newcomer.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    const { secret } = await enrolAuthenticator(newcomer);
    await newcomer.getByRole('link', { name: 'Verder naar het portaal' }).click();
    await newcomer.getByRole('heading', { name: 'Datavoorzieningen' }).waitFor();

    // Signing in again later: password, then the code from the app.
    await newcomer.getByRole('link', { name: 'Uitloggen' }).first().click();
    await newcomer.waitForURL((url) => url.pathname === '/login');
    await signInWithPassword(newcomer, colleague.email, colleague.password);
    await newcomer.getByLabel('Verificatiecode').waitFor();
    await expectAccessible(newcomer, 'second-factor step');
    await enterTotpCode(newcomer, secret);
    await newcomer.waitForURL((url) => url.pathname === '/permissies');
    await newcomer.getByRole('heading', { name: 'Dashboard jeugdzorg' }).waitFor();
    await newcomer.getByRole('heading', { name: 'Woningbouwplanner' }).waitFor();
    expect(await newcomer.getByRole('heading', { name: 'Veiligheidsbeeld' }).count()).toBe(0);
    await newcomer.getByText('Je datarollen: Sociaal domein, Ruimte en wonen.').waitFor();
    await expectAccessible(newcomer, 'Datavoorzieningen');
  });
});
