import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useJourney } from './support/journey.js';
import {
  cli,
  createColleague,
  DEMO_CATALOGUE,
  enrolAuthenticator,
  expectAccessible,
  signInWithPassword,
} from './support/pages.js';
import { sidebar, signOut } from './support/people.js';

const journey = useJourney();

/** The second-factor step, answered with a backup code instead of the app's code. */
async function enterBackupCode(page: Page, code: string) {
  await page.getByLabel('Back-upcode', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Gebruik een back-upcode', exact: true }).click();
}

describe('journey 8: a backup code instead of the code from the app', () => {
  it('signs in with a backup code, which then shows as Used and is refused a second time', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { first: 'Joris', withApp: false });
    const page = await journey.person('collega zonder telefoon');

    // First sign-in: link the app and keep the backup codes.
    await signInWithPassword(page, colleague.email, colleague.password);
    const { codes } = await enrolAuthenticator(page);
    const [used, next] = codes as [string, string];
    await page.getByRole('link', { name: 'Verder naar het portaal' }).click();
    await page.waitForURL((url) => url.pathname === '/permissies');
    await signOut(page);

    // The phone is not at hand: a backup code instead.
    await signInWithPassword(page, colleague.email, colleague.password);
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('aal') === 'aal2');
    await page.getByLabel('Back-upcode', { exact: true }).waitFor();
    await page.getByLabel('Verificatiecode', { exact: true }).waitFor();
    await expectAccessible(page, 'second-factor step with app code and backup code');
    await enterBackupCode(page, used);
    await page.waitForURL((url) => url.pathname === '/permissies');
    await sidebar(page).getByText(`${colleague.name}`, { exact: true }).waitFor();

    // The grid of backup codes on /settings/2fa-app shows the code as used.
    await page.goto('/settings/2fa-app');
    await page.getByRole('heading', { name: 'Je authenticator-app is gekoppeld' }).waitFor();
    expect(await page.locator('#lookup_secret_codes').count()).toBe(0);
    await expectAccessible(page, '2fa-app with the codes hidden');
    await page.getByRole('button', { name: 'Back-upcodes tonen', exact: true }).click();
    const grid = page.getByRole('list', { name: 'Back-upcodes', exact: true });
    await grid.waitFor();
    const shown = (await grid.getByRole('listitem').allInnerTexts()).map((text) => text.trim());
    expect(shown).toHaveLength(codes.length);
    expect(shown[codes.indexOf(used)]).toBe('Used');
    expect(shown.filter((text) => text === 'Used')).toHaveLength(1);
    expect(shown).not.toContain(used);
    expect(shown.filter((text) => text !== 'Used')).toEqual(codes.filter((code) => code !== used));
    await expectAccessible(page, '2fa-app with the codes shown, one of them used');
    await page.getByRole('link', { name: 'Verder naar het portaal' }).click();
    await page.waitForURL((url) => url.pathname === '/permissies');
    await signOut(page);

    // The same code a second time: refused, and the person stays on the second-factor step.
    await signInWithPassword(page, colleague.email, colleague.password);
    await page.getByLabel('Back-upcode', { exact: true }).waitFor();
    const flow = new URL(page.url()).searchParams.get('flow');
    await enterBackupCode(page, used);
    await page.getByRole('alert').filter({ hasText: 'Deze back-upcode is al gebruikt.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('flow')).toBe(flow);
    expect(await page.getByLabel('Back-upcode', { exact: true }).inputValue()).toBe('');
    // Still only the password done: the session has not reached the second factor.
    const level = await page.evaluate(() =>
      fetch('/api/users/whoami').then(async (response) => (await response.json()).authenticator_assurance_level),
    );
    expect(level).toBe('aal1');
    await expectAccessible(page, 'second-factor step with a used backup code refused');

    // Another, unused code still works.
    await enterBackupCode(page, next);
    await page.waitForURL((url) => url.pathname === '/permissies');
    await page.getByRole('heading', { name: 'Datavoorzieningen', level: 1 }).waitFor();
  });
});
