import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startApache, type Apache } from '../support/apache.js';
import { freePorts } from '../support/free-port.js';
import { DEMO_PASSWORD, portaalCli } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { atBothWidths, expectPlainPageFits, expectScreenFits } from './support/layout.js';
import { cli } from './support/pages.js';
import { sidebar } from './support/people.js';

// Journey 23: data services behind Debian's Apache httpd with mod_auth_openidc, a confidential client of the portal's
// OpenID Connect provider, configured by the example the README hands to operators (deploy/apache/
// mod-auth-openidc.conf, with its Dutch error page) with only its addresses changed. Two services: the
// Begrotingsvergelijker as the example has it, and the Wijkmonitor, which asks every sign-in to be fresh
// (`max_age=0`). Behind each, a small HTTP server shows the person the module passed on.

const [begrotingPort, wijkmonitorPort, ...upstreamPorts] = (await freePorts(4)) as [number, number, number, number];
const BEGROTING = `http://127.0.0.1:${begrotingPort}`;
const WIJKMONITOR = `http://127.0.0.1:${wijkmonitorPort}`;
const SECRET = 'apache-mod-auth-openidc-geheim-van-minstens-32-tekens';
const ALI = 'analist@dego.nl';

const folder = mkdtempSync(path.join(os.tmpdir(), 'apache-oidc-journey-'));
const catalogueFile = path.join(folder, 'catalogue.json');
const demo = JSON.parse(
  readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8'),
);
const catalogued = (id: string, url: string, clientId: string) =>
  Object.assign(
    demo.services.find((s: { id: string }) => s.id === id),
    {
      url: `${url}/`,
      oidc: {
        clientId,
        redirectUris: [`${url}/redirect_uri`],
        postLogoutRedirectUris: [`${url}/uitgelogd`],
        backchannelLogoutUri: `${url}/redirect_uri?logout=backchannel`,
      },
    },
  );
// The Begrotingsvergelijker admits DEGO's analysts (Ali Analist of the demo); the Wijkmonitor all of DEGO.
catalogued('begrotingsvergelijker', BEGROTING, 'begroting');
catalogued('wijkmonitor', WIJKMONITOR, 'wijkmonitor');
writeFileSync(catalogueFile, JSON.stringify(demo));

const journey = useJourney({
  args: ['--demo'],
  env: {
    CATALOGUE_FILE: catalogueFile,
    OIDC_CLIENT_SECRET_BEGROTING: SECRET,
    OIDC_CLIENT_SECRET_WIJKMONITOR: SECRET,
  },
});
/** The portal's address: it chooses its port as it starts, as another file's process may take one chosen earlier. */
let PORTAL = '';
beforeAll(() => {
  PORTAL = journey.portaal.publicUrl;
});

const example = () => readFileSync(new URL('../../deploy/apache/mod-auth-openidc.conf', import.meta.url), 'utf8');

/** The example's virtual host, pointed at this test's portal, service address, client and application. */
function exampleSite(service: string, port: number, clientId: string, upstreamPort: number, extra: string[] = []) {
  let config = example();
  const replace = (from: string, to: string) => {
    expect(config, `the example has '${from}'`).toContain(from);
    config = config.replaceAll(from, to);
  };
  replace('<VirtualHost *:443>', `<VirtualHost 127.0.0.1:${port}>`);
  replace('ServerName dienst.example.nl', 'ServerName 127.0.0.1');
  // Plain HTTP on the loopback interface: no certificate.
  for (const line of config.split('\n').filter((l) => /^\s*SSL(Engine|CertificateFile|CertificateKeyFile)\s/.test(l))) {
    replace(`${line}\n`, '');
  }
  replace('https://portaal.example.nl', PORTAL);
  replace('https://dienst.example.nl', service);
  replace('OIDCClientID dienst', `OIDCClientID ${clientId}`);
  replace('vervang-door-het-geheim-van-minstens-32-tekens', SECRET);
  replace('vervang-door-een-willekeurige-wachtzin', randomUUID());
  // Beside the configuration, in the server root: a relative path is read from there.
  replace('/etc/apache2/portaal/inloggen-mislukt.html', 'inloggen-mislukt.html');
  replace('http://127.0.0.1:8080/', `http://127.0.0.1:${upstreamPort}/`);
  // Both services are on 127.0.0.1, whose cookies the browser does not keep apart by port.
  replace(
    '</VirtualHost>',
    [`  OIDCCookie ${clientId}_sessie`, ...extra.map((line) => `  ${line}`), '</VirtualHost>'].join('\n'),
  );
  return config;
}

/** The example's Dutch error page, with the link to this test's portal. */
function errorTemplate(): string {
  const template = readFileSync(new URL('../../deploy/apache/inloggen-mislukt.html', import.meta.url), 'utf8');
  expect(template).toContain('https://portaal.example.nl/permissies');
  return template.replace('https://portaal.example.nl/permissies', `${PORTAL}/permissies`);
}

/**
 * The application behind Apache: shows who the module let in (its OIDC_CLAIM_* headers), with a logout link that
 * goes through the module, and the page the logout ends on.
 */
function startApplication(name: string, service: string, port: number): Promise<Server> {
  const page = (title: string, body: string) =>
    '<!doctype html><html lang="nl"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    if (request.url?.startsWith('/uitgelogd')) {
      response.end(page(`Je bent uitgelogd bij ${name}`, '<p><a href="/">Opnieuw inloggen</a></p>'));
      return;
    }
    const claim = (key: string) => request.headers[`oidc_claim_${key}`] ?? null;
    const seen = {
      path: request.url,
      email: claim('email'),
      name: claim('name'),
      dataRoles: claim('data_roles'),
      authTime: claim('auth_time'),
    };
    const logout = `/redirect_uri?logout=${encodeURIComponent(`${service}/uitgelogd`)}`;
    response.end(
      page(
        name,
        `<p>Ingelogd als ${seen.name} (${seen.email})</p>` +
          `<pre id="ontvangen">${JSON.stringify(seen).replace(/</g, '\\u003c')}</pre>` +
          `<p><a href="${logout}">Uitloggen</a></p>`,
      ),
    );
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

let apache: Apache;
let applications: Server[] = [];
beforeAll(async () => {
  applications = await Promise.all([
    startApplication('Begrotingsvergelijker', BEGROTING, upstreamPorts[0]),
    startApplication('Wijkmonitor', WIJKMONITOR, upstreamPorts[1]),
  ]);
  const site = [
    exampleSite(BEGROTING, begrotingPort, 'begroting', upstreamPorts[0]),
    // A service that wants to know the person typed their password just now.
    exampleSite(WIJKMONITOR, wijkmonitorPort, 'wijkmonitor', upstreamPorts[1], ['OIDCAuthRequestParams max_age=0']),
  ].join('\n');
  apache = await startApache(site, [begrotingPort, wijkmonitorPort], { 'inloggen-mislukt.html': errorTemplate() });
});
afterAll(async () => {
  await apache?.stop();
  await Promise.all(applications.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(folder, { recursive: true, force: true });
});

const received = async (page: Page) => JSON.parse(await page.locator('#ontvangen').innerText());

/** Every address the page is sent to from now on, redirects included. */
function navigations(page: Page): string[] {
  const visited: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) visited.push(request.url());
  });
  return visited;
}

/** The authorization requests among `visited`, not the provider's resumption of one (/oidc/auth/<uid>). */
const authorizationRequests = (visited: string[]) =>
  visited.map((address) => new URL(address)).filter((url) => url.origin === PORTAL && url.pathname === '/oidc/auth');

const atPortalSignIn = (url: URL) => url.origin === PORTAL && url.pathname === '/login';

/** Waits until the browser is at the portal's sign-in screen or at `service` + `pathname`, and says which. */
async function signInOrService(page: Page, service: string, pathname: string): Promise<'sign-in' | 'service'> {
  await page.waitForURL((url) => atPortalSignIn(url) || (url.origin === service && url.pathname === pathname));
  if (atPortalSignIn(new URL(page.url()))) {
    await page.getByLabel('Wachtwoord', { exact: true }).waitFor();
    return 'sign-in';
  }
  await page.locator('#ontvangen').waitFor();
  return 'service';
}

/** Clicks `control` and waits until the page that follows (after any redirects) has loaded. */
async function clickAndWaitForNextPage(page: Page, control: Locator) {
  const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
  await control.click();
  await navigated;
  await page.waitForLoadState();
}

async function signIn(page: Page, email: string, password: string) {
  // A fresh sign-in of a known person may show the address already.
  const address = page.getByLabel('E-mailadres');
  if ((await address.count()) > 0 && (await address.isEditable())) await address.fill(email);
  await page.getByLabel('Wachtwoord', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
}

/** One of the portal's sign-in screens, at both widths. */
const expectSignInFits = (page: Page, state: string) => atBothWidths(page, () => expectScreenFits(page, state));

/** Signs Ali Analist (demo) in at the Begrotingsvergelijker through the portal; answers what the service saw. */
async function signInAtBegroting(page: Page) {
  await page.goto(`${BEGROTING}/overzicht`);
  expect(await signInOrService(page, BEGROTING, '/overzicht')).toBe('sign-in');
  expect(new URL(page.url()).searchParams.get('return_to')).toMatch(new RegExp(`^${PORTAL}/oidc/interaction/`));
  await expectSignInFits(page, 'the sign-in on the way to a service behind Apache');
  await signIn(page, ALI, DEMO_PASSWORD);
  await page.waitForURL((url) => url.origin === BEGROTING && url.pathname === '/overzicht');
  await page.getByText('Ingelogd als Ali Analist (analist@dego.nl)').waitFor();
  const seen = await received(page);
  expect(seen).toMatchObject({ path: '/overzicht', email: ALI, name: 'Ali Analist' });
  return seen;
}

/** The service's logout link: the module ends its session and asks the portal (RP-initiated logout). */
async function logoutAtBegroting(page: Page) {
  await page.getByRole('link', { name: 'Uitloggen' }).click();
  await page.waitForURL((url) => url.origin === PORTAL && url.pathname.startsWith('/oidc/session/end'));
  await page.getByText('Wil je uitloggen bij Begrotingsvergelijker').waitFor();
  await expectPlainPageFits(page, "the portal's logout question");
}

describe('journey 23: data services behind Apache with mod_auth_openidc', () => {
  it("signs in through the portal; 'Ja, uitloggen' ends the services' and the portal's sessions", async () => {
    const page = await journey.person('ali');
    // Claim headers a browser makes up never reach the application: the module removes them.
    await page.setExtraHTTPHeaders({ OIDC_CLAIM_email: 'nep@voorbeeld.nl', OIDC_CLAIM_data_roles: 'alles' });
    // Signed in at two services: the Wijkmonitor with the password, then the Begrotingsvergelijker without.
    await page.goto(`${WIJKMONITOR}/kaart`);
    expect(await signInOrService(page, WIJKMONITOR, '/kaart')).toBe('sign-in');
    await signIn(page, ALI, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === WIJKMONITOR && url.pathname === '/kaart');
    expect((await received(page)).email).toBe(ALI);
    await page.goto(`${BEGROTING}/overzicht`);
    expect(await signInOrService(page, BEGROTING, '/overzicht'), 'single sign-on at the second service').toBe(
      'service',
    );
    expect(await received(page)).toMatchObject({ email: ALI, dataRoles: 'analyse_dego' });

    await logoutAtBegroting(page);
    await page.getByRole('button', { name: 'Ja, uitloggen' }).click();
    await page.waitForURL((url) => url.origin === BEGROTING && url.pathname === '/uitgelogd');
    await page.getByRole('heading', { name: 'Je bent uitgelogd bij Begrotingsvergelijker', level: 1 }).waitFor();
    expect(journey.portaal.output()).not.toContain('back-channel logout not delivered');
    expect(apache.errorLog()).not.toMatch(/auth_openidc:error/);

    // The portal told the Wijkmonitor over the back channel: its module's session ended, so a visit goes to the portal.
    const visited = navigations(page);
    await page.goto(`${WIJKMONITOR}/kaart`);
    const atWijkmonitor = await signInOrService(page, WIJKMONITOR, '/kaart');
    expect(authorizationRequests(visited), 'the Wijkmonitor kept its session after the logout').toHaveLength(1);
    // Signed out everywhere: the portal asks for the password, at either service.
    const lived =
      "the service lets the person in without the password after 'Ja, uitloggen': the portal's session lived on";
    expect(atWijkmonitor, lived).toBe('sign-in');
    await page.goto(`${BEGROTING}/overzicht`);
    expect(await signInOrService(page, BEGROTING, '/overzicht'), lived).toBe('sign-in');
    await expectSignInFits(page, "the sign-in after 'Ja, uitloggen'");
  });

  it("keeps the person signed in at service and portal after 'Nee, ingelogd blijven', and says so", async () => {
    const page = await journey.person('ali');
    await signInAtBegroting(page);

    await logoutAtBegroting(page);
    // The answer is another page, wherever it is.
    await clickAndWaitForNextPage(page, page.getByRole('button', { name: 'Nee, ingelogd blijven' }));
    await page.getByRole('heading', { level: 1 }).waitFor();
    const answer = await page.locator('main').innerText();
    expect(answer, "the page after 'Nee, ingelogd blijven' says the person is still signed in").toMatch(
      /(nog|blijft|bent) ingelogd/i,
    );
    expect(answer, "the page after 'Nee, ingelogd blijven' claims a logout").not.toMatch(/je bent uitgelogd/i);
    expect(new URL(page.url()).origin, "the portal's own answer").toBe(PORTAL);
    await expectPlainPageFits(page, "the answer to 'Nee, ingelogd blijven'");

    // Back to the service from that page: in without a question (mod_auth_openidc ended its own session before it
    // asked the portal, so it signs in again through the portal's session), and the portal still knows the person.
    const visited = navigations(page);
    await page.getByRole('link', { name: 'Terug naar Begrotingsvergelijker' }).click();
    expect(
      await signInOrService(page, BEGROTING, '/'),
      "after 'Nee, ingelogd blijven' the service asks for the password",
    ).toBe('service');
    expect(visited.some((address) => address.startsWith(`${PORTAL}/login`))).toBe(false);
    expect((await received(page)).email).toBe(ALI);
    await page.goto(`${PORTAL}/permissies`);
    await sidebar(page).getByText('Ali Analist', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/permissies');
  });

  it('shows a person the service does not admit a Dutch page, once, and no English error of the module', async () => {
    const email = `geweigerd-${randomUUID().slice(0, 6)}@dego.nl`;
    const password = 'Dijk-Polder-Gemaal-44';
    // A member of DEGO without the data role 'Analyse' that the Begrotingsvergelijker asks.
    cli(journey.portaal, [
      ...['user', 'create', '--email', email, '--first-name', 'Gijs', '--last-name', 'Geweigerd'],
      ...['--password', password, '--org', 'dego'],
    ]);
    const page = await journey.person('gijs');
    const visited = navigations(page);
    await page.goto(`${BEGROTING}/overzicht`);
    expect(await signInOrService(page, BEGROTING, '/overzicht')).toBe('sign-in');
    await signIn(page, email, password);
    await page.getByRole('heading', { name: 'Geen toegang', level: 1 }).waitFor();
    expect(new URL(page.url()).origin).toBe(PORTAL);
    await page.getByText('Je hebt geen toegang tot Begrotingsvergelijker').waitFor();
    await expectPlainPageFits(page, "the portal's refusal");

    // Back to the service, which learns access_denied: its Dutch page, not another sign-in.
    const back = page.getByRole('button', { name: 'Terug naar Begrotingsvergelijker' });
    if ((await back.count()) > 0) await clickAndWaitForNextPage(page, back);
    // Time for a loop to show itself, had there been one.
    await page.waitForTimeout(2_000);
    const text = await page.locator('body').innerText();
    expect(text, "mod_auth_openidc's English error page").not.toMatch(
      /Invalid Request|OpenID Connect|Error:|Description:/,
    );
    expect(await page.locator('html').getAttribute('lang')).toBe('nl');
    if (page.url().startsWith(BEGROTING)) {
      await page.getByRole('heading', { name: 'Inloggen bij deze datavoorziening is niet gelukt', level: 1 }).waitFor();
      await expectPlainPageFits(page, "the service's page after the refusal");
      await page.getByRole('link', { name: 'Naar je datavoorzieningen in het portaal' }).click();
      await page.waitForURL((url) => url.origin === PORTAL && url.pathname === '/permissies');
    }
    const authorizations = authorizationRequests(visited);
    expect(authorizations, 'the refused person was sent to sign in at the portal again').toHaveLength(1);
    const refusals = portaalCli(journey.portaal, ['audit', 'export'], 'portal')
      .stdout.split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.action === 'service.sign_in' && entry.actorEmail === email);
    expect(refusals.map((entry) => entry.result)).toEqual(['denied']);
  });

  it('asks for the password again when a service asks max_age=0; auth_time is then fresh', async () => {
    const page = await journey.person('ali');
    const before = Number((await signInAtBegroting(page)).authTime);
    expect(before).toBeGreaterThan(Date.now() / 1000 - 300);
    // auth_time counts seconds.
    await page.waitForTimeout(1_100);

    // The Wijkmonitor asks max_age=0: the portal's session is there, yet the password is asked.
    const visited = navigations(page);
    await page.goto(`${WIJKMONITOR}/kaart`);
    const arrived = await signInOrService(page, WIJKMONITOR, '/kaart');
    expect(authorizationRequests(visited).map((request) => request.searchParams.get('max_age'))).toEqual(['0']);
    expect(arrived, 'a service asking max_age=0 got in without the password being asked').toBe('sign-in');
    await expectSignInFits(page, 'the fresh sign-in a service asked for');
    await signIn(page, ALI, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === WIJKMONITOR && url.pathname === '/kaart');
    expect(Number((await received(page)).authTime), 'the auth_time after max_age=0').toBeGreaterThan(before);
  });

  it('asks for the password again when a service asks prompt=login; auth_time is then fresh', async () => {
    const page = await journey.person('ali');
    const before = Number((await signInAtBegroting(page)).authTime);
    await page.waitForTimeout(1_100);

    // The module starts a sign-in with extra parameters at its redirect URI (`iss`, `target_link_uri` and
    // `auth_request_params`), as a link of the service would: the signed-in person signs in again.
    const start = new URL(`${BEGROTING}/redirect_uri`);
    start.searchParams.set('iss', `${PORTAL}/oidc`);
    start.searchParams.set('target_link_uri', `${BEGROTING}/opnieuw`);
    start.searchParams.set('auth_request_params', 'prompt=login');
    const visited = navigations(page);
    await page.goto(start.href);
    const arrived = await signInOrService(page, BEGROTING, '/opnieuw');
    expect(authorizationRequests(visited).map((request) => request.searchParams.get('prompt'))).toEqual(['login']);
    expect(arrived, 'a service asking prompt=login got in without the password being asked').toBe('sign-in');
    await expectSignInFits(page, 'the sign-in again that prompt=login asked for');
    await signIn(page, ALI, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === BEGROTING && url.pathname === '/opnieuw');
    expect(Number((await received(page)).authTime), 'the auth_time after prompt=login').toBeGreaterThan(before);
  });
});
