import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import {
  bootstrapAdministrator,
  cli,
  DEMO_CATALOGUE,
  enrolAuthenticator,
  expectAccessible,
  signInWithPassword,
} from './support/pages.js';

const journey = useJourney();
const ADMIN = { email: 'eerste.beheerder@voorbeeldstad.nl', password: 'Kade-Brug-Sluis-Molen-93' };

describe('journey 1: the first administrator of a new installation', () => {
  it('signs in, is sent to link an authenticator app, saves backup codes and lands on the overview', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    bootstrapAdministrator(journey.portaal, ADMIN.email, ADMIN.password);
    const page = await journey.person('beheerder');

    await page.goto('/admin-login');
    await page.getByText('Hier kunt u inloggen voor het Administrator dashboard.').waitFor();
    await expectAccessible(page, 'admin login');
    await signInWithPassword(page, ADMIN.email, ADMIN.password, '/admin-login');

    await page.getByRole('heading', { name: 'Authenticator-app instellen' }).waitFor();
    await expectAccessible(page, '2fa-app enrolment');
    const { codes } = await enrolAuthenticator(page);
    expect(codes.length).toBeGreaterThan(0);
    await expectAccessible(page, '2fa-app with backup codes');

    await page.getByRole('link', { name: 'Verder naar het portaal' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('table').waitFor();
    await page.getByRole('cell', { name: ADMIN.email }).waitFor();
    await expectAccessible(page, 'user overview');
  });
});
