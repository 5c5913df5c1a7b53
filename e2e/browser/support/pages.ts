import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { totpCode } from '../../support/identities.js';
import { createMember, portaalCli, signInAtAal2 } from '../../support/portal-users.js';
import type { Portaal } from '../../support/portaal.js';
import { runAxe, WCAG_AA } from './axe.js';
import type { Journey } from './journey.js';
import { enterTotpCode, signInWithPassword } from './sign-in.js';

export { enterTotpCode, signInWithPassword };

export const DEMO_CATALOGUE = 'packages/users-api/catalogue/demo-catalogue.json';

/** The catalogue file (path and text) each portal's database was last given by `catalogue load`. */
const loadedCatalogues = new WeakMap<Portaal, string>();

/**
 * Runs a `portaal` CLI command on the journey's database and fails loudly when it does. Loading the very catalogue the
 * database was last given again changes nothing, so that is not run again (a process start costs about 1.5 s).
 */
export function cli(portaal: Portaal, args: string[]): string {
  const catalogue = args[0] === 'catalogue' && args[1] === 'load' && args[2] ? args[2] : undefined;
  const loading = catalogue && `${catalogue}\n${readFileSync(catalogue, 'utf8')}`;
  if (loading && loadedCatalogues.get(portaal) === loading) return '';
  const result = portaalCli(portaal, args);
  if (result.status !== 0)
    throw new Error(`portaal ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  if (loading) loadedCatalogues.set(portaal, loading);
  return result.stdout;
}

/** The first administrator of a municipality, as an operator bootstraps one on a new installation. */
export function bootstrapAdministrator(portaal: Portaal, email: string, password: string, org = 'voorbeeldstad') {
  cli(portaal, [
    'user',
    'create',
    '--email',
    email,
    '--first-name',
    'Bea',
    '--last-name',
    'Beheer',
    '--password',
    password,
    '--org',
    org,
    '--admin',
  ]);
}

/**
 * Links an authenticator app on /settings/2fa-app the way a person without a camera does: reads the key shown under
 * the QR code, types the code, then makes and confirms backup codes. Returns the key and the codes.
 */
export async function enrolAuthenticator(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.waitForURL((url) => url.pathname === '/settings/2fa-app');
  // The key is shown in groups of four; the app wants it without the spaces.
  const secret = (await page.locator('#totp_secret_key code').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  // One step back, so the sign-in that may follow does not reuse the code used here.
  await page.getByLabel('Code controleren').fill(await totpCode(secret, -1));
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await page.getByRole('heading', { name: 'Je authenticator-app is gekoppeld' }).waitFor();
  await page.getByRole('button', { name: 'Nieuwe back-upcodes maken' }).click();
  const codeList = page.locator('#lookup_secret_codes');
  await codeList.waitFor();
  const codes = (await codeList.innerText()).split(/\s+/).filter((code) => /^[a-z0-9]{6,}$/i.test(code));
  expect(codes.length).toBeGreaterThanOrEqual(8);
  await page.getByRole('button', { name: 'Back-upcodes bevestigen' }).click();
  await page.getByRole('button', { name: 'Back-upcodes bevestigen' }).waitFor({ state: 'detached' });
  return { secret, codes };
}

/** Zero axe violations of the WCAG 2.0–2.2 A and AA rules on the page as it is now. */
export async function expectAccessible(page: Page, state: string) {
  // Contrast measured halfway through a transition (a toast fading out) is no state a person reads: while axe looks,
  // every transition jumps to its end, whenever it starts.
  // A constructed sheet, which a strict Content-Security-Policy (the server's own pages) does not refuse.
  await page.evaluate(() => {
    const still = new CSSStyleSheet();
    still.replaceSync('*, *::before, *::after { transition: none !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, still];
  });
  const result = await runAxe(page, state, { tags: WCAG_AA }).finally(() =>
    page.evaluate(() => (document.adoptedStyleSheets = document.adoptedStyleSheets.slice(0, -1))),
  );
  const found = result.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ` +
      violation.nodes.map((node) => `${node.target.join(' ')} ${node.html.slice(0, 120)}`).join(', '),
  );
  expect(found, `axe on ${state}`).toEqual([]);
}

export interface SignedIn {
  page: Page;
  email: string;
  password: string;
  secret: string;
}

/**
 * A municipality with the demo catalogue and one administrator whose authenticator app is linked (over the API, to
 * keep journeys short), signed in in a fresh browser profile with password and code, on the user overview. A journey
 * whose portal started with a catalogue of its own (`CATALOGUE_FILE`) names that file as `catalogue`, lest the demo
 * catalogue replace it.
 */
export async function signInAsAdministrator(
  journey: Journey,
  {
    email = `beheerder-${randomUUID().slice(0, 6)}@voorbeeldstad.nl`,
    catalogue = DEMO_CATALOGUE,
  }: { email?: string; catalogue?: string } = {},
): Promise<SignedIn> {
  const password = 'Kade-Brug-Sluis-Molen-93';
  cli(journey.portaal, ['catalogue', 'load', catalogue]);
  await createMember(journey.portaal, {
    email,
    password,
    org: 'voorbeeldstad',
    admin: true,
    first: 'Bea',
    last: 'Beheer',
  });
  const { secret } = await signInAtAal2(journey.portaal, email, password);
  const page = await journey.person('beheerder');
  await signInWithPassword(page, email, password, '/admin-login');
  await enterTotpCode(page, secret);
  await page.getByRole('table').waitFor();
  return { page, email, password, secret };
}

/** The first link in the first mail to `address` since `since` that carries one. */
export async function linkFromMail(portaal: Portaal, address: string, since?: Date): Promise<string> {
  // Notices of account changes carry no link and may arrive in between.
  const withLink = /https?:\/\/[^\s"<>]+/;
  const mail = await portaal.mail.waitFor(address, { since, filter: (candidate) => withLink.test(candidate.text) });
  return withLink.exec(mail.text)![0];
}

/**
 * A colleague (no administrator) in the municipality with a password and, unless `withApp` is false, a linked app;
 * named 'Sam Collega' at a new address unless told otherwise.
 */
export async function createColleague(
  journey: Journey,
  options: { first?: string; last?: string; email?: string; withApp?: boolean; org?: string } = {},
) {
  const first = options.first ?? 'Sam';
  const last = options.last ?? 'Collega';
  const email = options.email ?? `${first.toLowerCase()}-${randomUUID().slice(0, 6)}@voorbeeldstad.nl`;
  const password = 'Grachten-Fiets-Tulp-51';
  await createMember(journey.portaal, { email, password, org: options.org ?? 'voorbeeldstad', first, last });
  const secret = options.withApp === false ? undefined : (await signInAtAal2(journey.portaal, email, password)).secret;
  return { email, password, secret, name: `${first} ${last}` };
}

/** Makes the provider refuse every sign-in of this page with a 401, as when it cannot sign anyone in. */
export const refuseSignIns = (page: Page) =>
  page.route(
    (url) => url.pathname === '/self-service/login',
    (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 401, contentType: 'application/json', body: '{"error":{"code":401}}' })
        : route.fallback(),
  );

/** The overview's row of the user with this e-mail address. */
export const rowOf = (page: Page, email: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: email, exact: true }) });
