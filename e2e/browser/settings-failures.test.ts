import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  enterTotpCode,
  expectAccessible,
  signInWithPassword,
} from './support/pages.js';

// Changing the address or the password needs a sign-in of at most 10 seconds ago here (15 minutes by default).
const PRIVILEGED_SECONDS = 10;
const journey = useJourney({
  env: { PRIVILEGED_SESSION_MAX_AGE: `${PRIVILEGED_SECONDS}s`, SUPPORT_EMAIL: 'support@voorbeeldstad.nl' },
});

const PROFILE_FAILED = 'Er is iets misgegaan bij het updaten van je gegevens. Probeer het nog eens.';

describe('journey 7b: a failing save on the settings says why', () => {
  it('for an address in use, a server error, a lost connection and a sign-in too long ago', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { first: 'Fenna' });
    const other = await createColleague(journey, { first: 'Gijs', withApp: false });
    const page = await journey.person('collega');
    await signInWithPassword(page, colleague.email, colleague.password);
    await enterTotpCode(page, colleague.secret!);
    await page.waitForURL((url) => url.pathname === '/permissies');
    const signedInAt = Date.now();
    await page.goto('/settings');
    const email = page.getByLabel('E-mailadres', { exact: true });
    const save = page.getByRole('button', { name: 'Bewerkingen opslaan' });
    const alert = page.getByRole('alert');

    // The provider's own reason (4000007), in Dutch, and not the general message.
    await email.fill(other.email);
    await save.click();
    await alert.getByText('Er bestaat al een account met dit e-mailadres.', { exact: true }).waitFor();
    expect(await alert.innerText()).not.toContain('Er is iets misgegaan');
    await expectAccessible(page, 'settings: address in use');

    // A server error: the general message and the support address.
    await page.route('**/self-service/settings?flow=*', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":500}}' })
        : route.fallback(),
    );
    await page.getByLabel('Naam', { exact: true }).fill('Fenneke');
    await email.fill('');
    await save.click();
    await alert.getByText(PROFILE_FAILED, { exact: true }).waitFor();
    await alert.getByRole('link', { name: 'support@voorbeeldstad.nl' }).waitFor();
    await expectAccessible(page, 'settings: server error');

    // No connection: the same, and that the server cannot be reached.
    await page.unrouteAll();
    await page.route('**/self-service/settings?flow=*', (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
    );
    await save.click();
    await alert.getByText('De server van het portaal is niet bereikbaar.', { exact: false }).waitFor();
    await page.unrouteAll();

    // A sign-in too long ago for a new password: sign in again, told why, and back on the settings.
    await page.waitForTimeout(Math.max(0, signedInAt + PRIVILEGED_SECONDS * 1000 + 500 - Date.now()));
    await page.getByLabel('Nieuw wachtwoord', { exact: true }).fill('Ophaalbrug-Kermis-Zuid-27');
    await page.getByLabel('Wachtwoord bevestigen', { exact: true }).fill('Ophaalbrug-Kermis-Zuid-27');
    await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('refresh') === 'true');
    await page
      .getByText(
        'Voor deze wijziging moet je eerst opnieuw inloggen, omdat je al een tijd geleden bent ' +
          'ingelogd. Daarna ga je terug naar je instellingen en doe je de wijziging nog een keer.',
      )
      .waitFor();
    await expectAccessible(page, 'sign-in again, with the reason');
    await page.getByLabel('Wachtwoord', { exact: true }).fill(colleague.password);
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    const code = page.getByLabel('Verificatiecode');
    await Promise.race([code.waitFor(), page.waitForURL((url) => url.pathname === '/settings')]);
    if (await code.isVisible()) await enterTotpCode(page, colleague.secret!, 1);
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByLabel('Nieuw wachtwoord', { exact: true }).fill('Ophaalbrug-Kermis-Zuid-27');
    await page.getByLabel('Wachtwoord bevestigen', { exact: true }).fill('Ophaalbrug-Kermis-Zuid-27');
    await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    await page.getByRole('status').getByText('Je gegevens zijn aangepast.', { exact: true }).waitFor();
  });
});
