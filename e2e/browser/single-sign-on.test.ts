import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../support/free-port.js';
import { startOidcService, type OidcService } from '../support/oidc-service.js';
import { signInAtAal1 } from '../support/portal-users.js';
import { enrolTotp } from '../support/flows.js';
import type { PortaalOptions } from '../support/portaal.js';
import { useJourney } from './support/journey.js';
import { enterTotpCode, expectAccessible } from './support/pages.js';

// Single sign-on for the data services (README, 'Single sign-on'): a person opens a data service, signs in at the
// portal with password and authenticator code, and is back at the service signed in; a second service signs them in
// without asking again, and 'Datavoorzieningen' opens a service at its sign-in address.

const EMAIL = 'medewerker@voorbeeldstad.nl';
const PASSWORD = 'Tulpen-Molen-Gracht-7';
const SECRET = 'een-geheim-voor-de-testdiensten-van-40-tekens';

// The services must be in the catalogue before the portal starts; the journey's own start comes after this one.
const options: PortaalOptions & { env: Record<string, string> } = { args: ['--demo'], env: {} };
let wijkmonitor: OidcService;
let jeugdzorg: OidcService;
let workDir: string;

beforeAll(async () => {
  const [wijkPort, jeugdPort] = await freePorts(2);
  const wijkUrl = `http://127.0.0.1:${wijkPort}`;
  const jeugdUrl = `http://127.0.0.1:${jeugdPort}`;
  const catalogue = JSON.parse(
    readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8'),
  );
  const service = (id: string) => catalogue.services.find((s: { id: string }) => s.id === id);
  service('wijkmonitor').url = wijkUrl;
  service('wijkmonitor').oidc = {
    clientId: 'wijkmonitor',
    redirectUris: [`${wijkUrl}/callback`],
    initiateLoginUri: `${wijkUrl}/login`,
  };
  service('jeugdzorg-dashboard').url = jeugdUrl;
  service('jeugdzorg-dashboard').oidc = { clientId: 'jeugdzorg', redirectUris: [`${jeugdUrl}/callback`] };
  workDir = mkdtempSync(path.join(os.tmpdir(), 'sso-journey-'));
  const catalogueFile = path.join(workDir, 'catalogue.json');
  writeFileSync(catalogueFile, JSON.stringify(catalogue));
  Object.assign(options.env, {
    CATALOGUE_FILE: catalogueFile,
    OIDC_CLIENT_SECRET_WIJKMONITOR: SECRET,
    OIDC_CLIENT_SECRET_JEUGDZORG: SECRET,
  });
  const issuer = () => new URL(`${journey.portaal.publicUrl}/oidc`);
  [wijkmonitor, jeugdzorg] = await Promise.all([
    startOidcService({ port: wijkPort!, name: 'Wijkmonitor', clientId: 'wijkmonitor', secret: SECRET, issuer }),
    startOidcService({ port: jeugdPort!, name: 'Dashboard jeugdzorg', clientId: 'jeugdzorg', secret: SECRET, issuer }),
  ]);
});
afterAll(async () => {
  await Promise.all([wijkmonitor?.close(), jeugdzorg?.close()]);
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const journey = useJourney(options);

describe('journey 21: single sign-on for the data services', () => {
  it('signs in at a service through the portal with the second factor, then at another without asking', async () => {
    // The person linked an authenticator app before (as in journey 2).
    const secret = await enrolTotp((await signInAtAal1(journey.portaal, EMAIL, PASSWORD)).browser, -1);

    const page = await journey.person('medewerker');
    await page.goto(`${jeugdzorg.url}/`);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('return_to')).toMatch(/\/oidc\/interaction\//);
    await page.getByLabel('E-mailadres').fill(EMAIL);
    await page.getByLabel('Wachtwoord', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    await page.getByLabel('Verificatiecode').waitFor();
    await enterTotpCode(page, secret);
    await page.waitForURL((url) => url.href.startsWith(jeugdzorg.url));
    await page.getByText('Ingelogd als Mees Medewerker (medewerker@voorbeeldstad.nl)').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Dashboard jeugdzorg');

    // A second service: straight through the portal, nothing asked.
    // Every address the page was sent to, redirects included: the portal's sign-in screen must not be among them.
    const visited: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(request.url());
    });
    const askedToSignIn = () => visited.some((address) => address.startsWith(`${journey.portaal.publicUrl}/login`));
    await page.goto(`${wijkmonitor.url}/`);
    await page.getByText('Ingelogd als Mees Medewerker').waitFor();
    expect(page.url().startsWith(wijkmonitor.url)).toBe(true);
    expect(visited.some((address) => address.includes('/oidc/interaction/'))).toBe(true);
    expect(askedToSignIn()).toBe(false);

    // 'Datavoorzieningen' opens a service at its sign-in address: a new sign-in there, again without a question.
    await page.goto('/permissies');
    const link = page.getByRole('link', { name: /Naar Wijkmonitor/ });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${wijkmonitor.url}/login\\?iss=`));
    await expectAccessible(page, 'Datavoorzieningen with single sign-on');
    visited.length = 0;
    await link.click();
    await page.getByText('Ingelogd als Mees Medewerker').waitFor();
    expect(visited.some((address) => address.startsWith(`${wijkmonitor.url}/callback`))).toBe(true);
    expect(askedToSignIn()).toBe(false);
  });
});
