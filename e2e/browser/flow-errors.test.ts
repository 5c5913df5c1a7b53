import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import { expectInsideWindow, expectNoSidewaysScroll, resizeTo } from './support/layout.js';
import { createColleague, DEMO_CATALOGUE, cli, expectAccessible, signInWithPassword } from './support/pages.js';

// Short-lived flows, so that an expired one can be met without waiting an hour; the statements at the foot of the page.
const ACCESSIBILITY = 'https://www.voorbeeldstad.nl/toegankelijkheidsverklaring';
const journey = useJourney({ env: { FLOW_LIFESPAN: '3s', ACCESSIBILITY_STATEMENT_URL: ACCESSIBILITY } });

/** Set JOURNEY_SCREENSHOTS to a folder to keep pictures to look at by eye. */
const SCREENSHOTS = process.env.JOURNEY_SCREENSHOTS;

const loginForm = (page: import('playwright-core').Page) => page.getByLabel('E-mailadres');

describe('journey 9: broken, expired and foreign flows end on a useful screen', () => {
  it('restarts the sign-in when the flow id in the address is made up', async () => {
    const page = await journey.person();
    await page.goto('/login?flow=00000000-0000-4000-8000-000000000000');
    await loginForm(page).waitFor();
    await page.waitForURL(
      (url) => /^[0-9a-f-]{36}$/.test(url.searchParams.get('flow') ?? '') && !url.search.includes('00000000-0000'),
    );
  });

  it('says why a passkey cannot work on an IP address such as 127.0.0.1, instead of asking to try again', async () => {
    const page = await journey.person();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Inloggen met een passkey' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'werken niet op dit adres van het portaal' });
    await alert.waitFor();
    expect(await alert.innerText()).not.toContain('Probeer het opnieuw');
    await expectAccessible(page, 'the sign-in screen after a passkey on an IP address');
  });

  it('offers a fresh form with a Dutch explanation when the flow expired', async () => {
    cli(journey.portaal, ['catalogue', 'load', DEMO_CATALOGUE]);
    const colleague = await createColleague(journey, { withApp: false });
    const page = await journey.person();
    await page.goto('/login');
    await loginForm(page).waitFor();
    const expiredFlow = new URL(page.url()).searchParams.get('flow');
    await page.waitForTimeout(3_500);
    await page.getByLabel('E-mailadres').fill(colleague.email);
    await page.getByLabel('Wachtwoord', { exact: true }).fill(colleague.password);
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    await page.getByText('Het inloggen duurde te lang. Probeer het opnieuw.').waitFor();
    expect(new URL(page.url()).searchParams.get('flow')).not.toBe(expiredFlow);
    // The new form keeps the e-mail address the person typed, not the password.
    expect(await page.getByLabel('E-mailadres').inputValue()).toBe(colleague.email);
    expect(await page.getByLabel('Wachtwoord', { exact: true }).inputValue()).toBe('');
    await expectAccessible(page, 'expired sign-in flow');
    for (const width of [375, 1280]) {
      await resizeTo(page, { width, height: 800 });
      await expectNoSidewaysScroll(page, `the expired sign-in flow at ${width} px`);
      await expectInsideWindow(page, page.getByRole('textbox'), `the expired sign-in flow at ${width} px`);
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/expired-sign-in-${width}.png`, fullPage: true });
    }
  });

  it('refuses a return_to on a foreign site and still shows the sign-in form', async () => {
    const page = await journey.person();
    await page.goto('/login?return_to=https://kwaadwillend.example/oogst');
    await page
      .getByText('Het adres waar je hierna heen zou gaan, hoort niet bij het portaal. Je blijft daarom in het portaal.')
      .waitFor();
    await loginForm(page).waitFor();
    expect(new URL(page.url()).searchParams.get('return_to')).toBeNull();
    await expectAccessible(page, 'sign-in after a refused return_to');
  });

  it('brings a person who had to sign in first back to the return_to of the page they opened', async () => {
    const colleague = await createColleague(journey, { withApp: false, org: 'dego' });
    const page = await journey.person();
    await page.goto(`/permissies?return_to=${encodeURIComponent(`${journey.portaal.publicUrl}/settings`)}`);
    await page.waitForURL((url) => url.pathname === '/login');
    await loginForm(page).fill(colleague.email);
    await page.getByLabel('Wachtwoord', { exact: true }).fill(colleague.password);
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByRole('heading', { name: 'Account instellingen', level: 1 }).waitFor();
  });

  it('starts over when the anti-forgery cookie is missing, and signing in then works', async () => {
    const colleague = await createColleague(journey, { withApp: false, org: 'dego' });
    const page = await journey.person();
    await page.goto('/login');
    await loginForm(page).waitFor();
    const context = page.context();
    const kept = (await context.cookies()).filter((cookie) => !cookie.name.startsWith('csrf_token'));
    await context.clearCookies();
    await context.addCookies(kept);
    await page.getByLabel('E-mailadres').fill(colleague.email);
    await page.getByLabel('Wachtwoord', { exact: true }).fill(colleague.password);
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    await page
      .getByText(
        'Het formulier kon niet veilig worden verstuurd. Misschien was het verlopen of in een ander ' +
          'venster geopend. Vul het opnieuw in.',
      )
      .waitFor();
    await signInWithPassword(page, colleague.email, colleague.password);
    await page.waitForURL((url) => url.pathname === '/permissies');
  });

  it('shows the error page in Dutch for an error report, with the way back', async () => {
    const page = await journey.person();
    await page.goto('/error');
    await page.getByRole('heading', { name: 'Er is een fout opgetreden' }).waitFor();
    await page.getByRole('link', { name: 'Naar login' }).waitFor();
    await expectAccessible(page, 'error page');
  });

  it('loads the page again when a screen’s code is gone after an update, and says so when it stays gone', async () => {
    const page = await journey.person();
    // The screen's file as the page on screen names it: refused `refusals` times (a new version went live).
    let refusals = 1;
    let asked = 0;
    await page.route(/\/assets\/RecoveryScreen-[\w-]+\.js$/, (route) => {
      asked += 1;
      return asked <= refusals ? route.fulfill({ status: 404, body: '' }) : route.fallback();
    });
    await page.goto('/login');
    await page.getByRole('link', { name: 'Wachtwoord vergeten' }).click();
    await page.getByRole('heading', { name: 'Herstel je wachtwoord', level: 1 }).waitFor();
    expect(asked, 'refused once, then loaded with the page loaded again').toBe(2);

    // Still gone after loading the page again (or no connection): the screen says so instead of staying empty.
    await page.evaluate(() => sessionStorage.clear());
    refusals = Number.POSITIVE_INFINITY;
    await page.goto('/login');
    await page.getByRole('link', { name: 'Wachtwoord vergeten' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Deze pagina kon niet worden geladen.' });
    await alert.waitFor();
    await expect.poll(() => alert.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.getByRole('button', { name: 'Opnieuw proberen' }).waitFor();
    await page.getByRole('heading', { name: 'Pagina niet geladen', level: 1 }).waitFor();
    expect(await page.title()).toBe('Pagina niet geladen – Datavoorzieningen Portaal');
    await expectAccessible(page, 'a screen whose code could not be loaded');
    for (const width of [375, 1280]) {
      await resizeTo(page, { width, height: 800 });
      await expectNoSidewaysScroll(page, `the screen without its code at ${width} px`);
    }
  });

  it('other pages without a session are Dutch and accessible: sign-in, verification, registration, 404', async () => {
    const page = await journey.person();
    await page.goto('/login');
    await loginForm(page).waitFor();
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    const summary = page.getByRole('alert', { name: 'Controleer de volgende velden:' });
    await summary.waitFor();
    await expect.poll(() => summary.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await summary.getByRole('listitem').allInnerTexts()).length).toBeGreaterThan(0);
    expect(await summary.innerText()).not.toMatch(/Property|missing/);
    await expectAccessible(page, 'sign-in with the error summary');
    const footer = page.getByRole('contentinfo');
    expect(await footer.getByRole('link', { name: 'Toegankelijkheid' }).getAttribute('href')).toBe(ACCESSIBILITY);
    expect(await footer.getByRole('link', { name: 'Privacy' }).count()).toBe(0);

    await page.goto('/verification');
    await page.getByRole('heading', { name: 'Verifieer je account', level: 1 }).waitFor();
    await page.getByLabel('E-mailadres').waitFor();
    await expectAccessible(page, 'verification');

    await page.goto('/registration');
    await page
      .getByText('Accounts worden gemaakt door de beheerder van je gemeente. Vraag hem of haar om een uitnodiging.')
      .waitFor();
    await expectAccessible(page, 'registration (off)');

    await page.goto('/bestaat-niet');
    await page.getByRole('heading', { name: 'Pagina niet gevonden', level: 1 }).waitFor();
    expect(await page.title()).toBe('Pagina niet gevonden – Datavoorzieningen Portaal');
    await expectAccessible(page, 'page not found');
  });
});
