// Writes the README's screenshots of the main screens to docs/screenshots/ (`npm run screenshots`), each 1280 and
// 375 px wide. It runs the product with its demo data in Debian's Chromium, like the journeys, but is not a test.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { startPortaal } from '../support/portaal.js';
import { DEMO_PASSWORD, signInAtAal2 } from '../support/portal-users.js';
import { launchChromium } from './support/chromium.js';
import { enterTotpCode, signInWithPassword } from './support/sign-in.js';

const folder = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const ADMIN = 'beheerder@voorbeeldstad.nl';

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };

/** The screen as it is now, on a laptop (`name.png`) and on a phone (`name-375.png`), then back to the laptop. */
async function shoot(page: Page, name: string) {
  for (const [size, file] of [
    [LAPTOP, `${name}.png`],
    [PHONE, `${name}-375.png`],
  ] as const) {
    await page.setViewportSize(size);
    // Let fonts, the toast fade and focus rings settle; the picture is of the resting screen.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${folder}${file}` });
    console.log(`docs/screenshots/${file}`);
  }
  await page.setViewportSize(LAPTOP);
}

mkdirSync(folder, { recursive: true });
const portaal = await startPortaal({ args: ['--demo'] });
const browser = await launchChromium();
try {
  const { secret } = await signInAtAal2(portaal, ADMIN, DEMO_PASSWORD);
  const context = await browser.newContext({
    baseURL: portaal.publicUrl,
    locale: 'nl-NL',
    viewport: LAPTOP,
  });
  const page = await context.newPage();

  await page.goto('/login');
  await page.getByLabel('E-mailadres').waitFor();
  await shoot(page, 'inloggen');

  await signInWithPassword(page, ADMIN, DEMO_PASSWORD, '/admin-login');
  await page.getByLabel('Verificatiecode').waitFor();
  await shoot(page, 'tweede-stap');

  await enterTotpCode(page, secret);
  await page.getByRole('table').waitFor();
  await shoot(page, 'overzicht');

  await page.getByRole('button', { name: 'Nieuwe gebruiker toevoegen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nieuwe gebruiker toevoegen' });
  await dialog.getByLabel('E-mailadres').fill('nieuwe.collega@voorbeeldstad.nl');
  await dialog.getByLabel('Voornaam').focus();
  await dialog.getByText('E-mailadres is nog niet in gebruik.').waitFor();
  await dialog.getByLabel('Voornaam').fill('Noor');
  await dialog.getByLabel('Achternaam').fill('de Vries');
  await dialog.getByLabel('Sociaal domein').check();
  await shoot(page, 'nieuwe-gebruiker');
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Account instellingen' }).first().click();
  await page.getByLabel('Achternaam').waitFor();
  await shoot(page, 'instellingen');

  await page.getByRole('link', { name: 'Datavoorzieningen' }).first().click();
  await page.getByRole('heading', { name: 'Dashboard jeugdzorg' }).waitFor();
  await shoot(page, 'datavoorzieningen');

  // A colleague without an authenticator app is asked to link one first.
  const colleague = await browser.newContext({
    baseURL: portaal.publicUrl,
    locale: 'nl-NL',
    viewport: LAPTOP,
  });
  const newcomer = await colleague.newPage();
  await signInWithPassword(newcomer, 'medewerker@voorbeeldstad.nl', DEMO_PASSWORD);
  await newcomer.locator('#totp_secret_key').waitFor();
  await shoot(newcomer, 'authenticator-app');

  // Pages the server renders for people arriving from a data service: a refusal that a proxy passes on, and an
  // error of the OpenID Connect provider.
  const analyst = await (
    await browser.newContext({ baseURL: portaal.publicUrl, locale: 'nl-NL', viewport: LAPTOP })
  ).newPage();
  await signInWithPassword(analyst, 'analist@dego.nl', DEMO_PASSWORD);
  await analyst.waitForURL((url) => url.pathname !== '/login');
  await analyst.goto('/api/forward-auth?service=woningbouwplanner&redirect=true');
  await analyst.getByRole('heading', { name: 'Geen toegang' }).waitFor();
  await shoot(analyst, 'geen-toegang');
  await analyst.goto('/oidc/auth?client_id=onbekend&response_type=code&scope=openid');
  await analyst.getByRole('heading', { level: 1 }).waitFor();
  await shoot(analyst, 'inloggen-mislukt');
} finally {
  await browser.close();
  await portaal.stop();
}
