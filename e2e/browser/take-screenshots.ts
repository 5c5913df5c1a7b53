// Writes the README's screenshots of the main screens to docs/screenshots/ (`npm run screenshots`), each 1280 and
// 375 px wide. It runs the product with its demo data in Debian's Chromium, like the journeys, but is not a test.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { startPortaal } from '../support/portaal.js';
import { createMember, DEMO_PASSWORD, portaalCli, signInAtAal2 } from '../support/portal-users.js';
import { launchChromium } from './support/chromium.js';
import { enterTotpCode, signInWithPassword } from './support/sign-in.js';
import { resizeTo } from './support/layout.js';

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
    await resizeTo(page, size);
    // Let fonts, the toast fade and focus rings settle; the picture is of the resting screen.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${folder}${file}` });
    console.log(`docs/screenshots/${file}`);
  }
  await resizeTo(page, LAPTOP);
}

/**
 * The demo catalogue with one data service signing in over OpenID Connect, so that the provider's own pages (the
 * logout question, its 'Nee' answer, 'Geen toegang') can be shown.
 */
function catalogueWithOidcClient(SERVICE: string): { file: string; remove(): void } {
  const catalogue = JSON.parse(
    readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8'),
  );
  catalogue.services.find((s: { id: string }) => s.id === 'jeugdzorg-dashboard').oidc = {
    clientId: 'jeugdzorg',
    redirectUris: [`${SERVICE}/callback`],
    postLogoutRedirectUris: [`${SERVICE}/uitgelogd`],
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaal-screenshots-'));
  const file = path.join(dir, 'catalogue.json');
  writeFileSync(file, JSON.stringify(catalogue));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An authorization request of the service: where a person arrives from it. */
const authorize = (SERVICE: string) =>
  `/oidc/auth?client_id=jeugdzorg&response_type=code&scope=openid&state=s&redirect_uri=${encodeURIComponent(
    `${SERVICE}/callback`,
  )}`;

mkdirSync(folder, { recursive: true });
// The data service: a blank page where the provider sends the browser back.
const service = http.createServer((_request, response) => response.end('<title>-</title>'));
await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
const SERVICE = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
const catalogue = catalogueWithOidcClient(SERVICE);
const portaal = await startPortaal({
  args: ['--demo'],
  env: {
    CATALOGUE_FILE: catalogue.file,
    OIDC_CLIENT_SECRET_JEUGDZORG: 'een-geheim-voor-de-schermafdrukken-van-32-tekens',
  },
});
const browser = await launchChromium();
try {
  const { secret } = await signInAtAal2(portaal, ADMIN, DEMO_PASSWORD);
  const context = await browser.newContext({
    baseURL: portaal.publicUrl,
    locale: 'nl-NL',
    viewport: LAPTOP,
  });
  const page = await context.newPage();
  // The data service is not there: its address answers a blank page.
  await context.route(`${SERVICE}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>-</title>' }),
  );

  await page.goto('/login');
  await page.getByLabel('E-mailadres').waitFor();
  await shoot(page, 'inloggen');

  await page.goto('/recovery');
  await page.getByLabel('E-mailadres').waitFor();
  await shoot(page, 'wachtwoord-vergeten');

  await page.goto('/verification');
  await page.getByLabel('E-mailadres').waitFor();
  await shoot(page, 'account-verifieren');

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

  await page.getByRole('link', { name: 'Logboek bekijken' }).click();
  await page.getByRole('heading', { level: 1, name: 'Logboek' }).waitFor();
  await page.getByRole('table').waitFor();
  await shoot(page, 'logboek');

  await page.goto(new URL('/toegangsreview', page.url()).href);
  await page.getByRole('heading', { level: 1, name: 'Toegangsreview' }).waitFor();
  await page.getByRole('radio', { name: 'Behouden' }).first().check();
  await shoot(page, 'toegangsreview');

  const importDir = mkdtempSync(path.join(os.tmpdir(), 'portaal-screenshots-import-'));
  const importFile = path.join(importDir, 'nieuwe-collega-s.csv');
  writeFileSync(
    importFile,
    [
      'Voornaam;Achternaam;E-mailadres;Datarollen;Beheerder',
      'Noor;de Vries;noor.devries@voorbeeldstad.nl;Sociaal domein;nee',
      'Sem;Bakker;sem.bakker@voorbeeldstad.nl;"Ruimte en wonen, Financiën";nee',
      'Mees;Medewerker;medewerker@voorbeeldstad.nl;Financiën;nee',
      'Lotte;Smit;lotte.smit@voorbeeldstad;Sociaal domein;nee',
    ].join('\r\n'),
  );
  await page.goto(new URL('/importeren', page.url()).href);
  await page.getByLabel('CSV-bestand').setInputFiles(importFile);
  await page.getByRole('button', { name: 'Controleren' }).click();
  await page.getByRole('table').waitFor();
  await shoot(page, 'importeren');
  rmSync(importDir, { recursive: true, force: true });

  await page.getByRole('link', { name: 'Account instellingen' }).first().click();
  await page.getByLabel('Achternaam').waitFor();
  await shoot(page, 'instellingen');

  await page.getByRole('link', { name: 'Datavoorzieningen' }).first().click();
  await page.getByRole('heading', { name: 'Dashboard jeugdzorg' }).waitFor();
  await shoot(page, 'datavoorzieningen');

  // Signed in at the data service through the portal, the person signs out there: the provider asks first.
  await page.goto(authorize(SERVICE));
  await page.waitForURL((url) => url.href.startsWith(SERVICE));
  await page.goto('/oidc/session/end?client_id=jeugdzorg');
  await page.getByRole('button', { name: 'Ja, uitloggen' }).waitFor();
  await shoot(page, 'uitloggen-vraag');
  await page.getByRole('button', { name: 'Nee, ingelogd blijven' }).click();
  await page.getByRole('heading', { name: 'Je bent ingelogd gebleven' }).waitFor();
  await shoot(page, 'ingelogd-gebleven');
  await page.goto('/oidc/session/end');
  await page.getByRole('button', { name: 'Ja, uitloggen' }).click();
  await page.getByRole('heading', { name: 'Je bent uitgelogd' }).waitFor();
  await shoot(page, 'uitgelogd');

  // 'Programmabeheer': a programme administrator, made one with the CLI as an operator does, sees the organisations.
  const PROGRAMME_ADMIN = 'programmabeheerder@dego.nl';
  await createMember(portaal, {
    email: PROGRAMME_ADMIN,
    password: DEMO_PASSWORD,
    org: 'dego',
    first: 'Pim',
    last: 'Programma',
  });
  const granted = portaalCli(portaal, ['programme-admin', 'add', '--email', PROGRAMME_ADMIN]);
  if (granted.status !== 0) throw new Error(`programme-admin add failed:\n${granted.stdout}${granted.stderr}`);
  const programme = await signInAtAal2(portaal, PROGRAMME_ADMIN, DEMO_PASSWORD);
  const programmePage = await (
    await browser.newContext({ baseURL: portaal.publicUrl, locale: 'nl-NL', viewport: LAPTOP })
  ).newPage();
  await signInWithPassword(programmePage, PROGRAMME_ADMIN, DEMO_PASSWORD);
  await enterTotpCode(programmePage, programme.secret);
  await programmePage.waitForURL((url) => url.pathname !== '/login');
  await programmePage.goto('/programmabeheer');
  await programmePage.getByRole('table').waitFor();
  await shoot(programmePage, 'programmabeheer');
  // Its data services, and a new client secret as it is shown once.
  await programmePage.goto('/programmabeheer/datavoorzieningen');
  await programmePage.getByRole('table').waitFor();
  await shoot(programmePage, 'programmabeheer-datavoorzieningen');
  await programmePage.getByRole('button', { name: 'Nieuw geheim: Dashboard jeugdzorg' }).click();
  await programmePage.getByRole('button', { name: 'Nieuw geheim maken' }).click();
  await programmePage.getByRole('dialog', { name: 'Clientgeheim van Dashboard jeugdzorg' }).waitFor();
  await shoot(programmePage, 'clientgeheim');

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
  // The provider's own refusal, for a service the person's data roles do not open.
  await analyst.goto(authorize(SERVICE));
  await analyst.getByRole('heading', { name: 'Geen toegang' }).waitFor();
  await shoot(analyst, 'geen-toegang-oidc');
} finally {
  await browser.close();
  await portaal.stop();
  catalogue.remove();
  service.close();
}
