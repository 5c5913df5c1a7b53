import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePorts } from '../support/free-port.js';
import { startNginx, type Nginx } from '../support/nginx.js';
import { signInAtAal2 } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';
import { cli, enterTotpCode, expectAccessible } from './support/pages.js';

// Journey: a data service behind Debian's nginx with auth_request, configured by the example the README hands to
// operators (deploy/nginx/forward-auth.conf), with only its addresses changed. The upstream is a small HTTP server
// that shows the headers it received.

const [nginxPort, upstreamPort] = (await freePorts(2)) as [number, number];
const SERVICE = `http://127.0.0.1:${nginxPort}`;
const PASSWORD = 'Kaart-Wijk-Buurt-Straat-61';

const folder = mkdtempSync(path.join(os.tmpdir(), 'forward-auth-journey-'));
const catalogueFile = path.join(folder, 'catalogue.json');
const demo = JSON.parse(
  readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8'),
);
const wijkmonitor = demo.services.find((s: { id: string }) => s.id === 'wijkmonitor');
Object.assign(wijkmonitor, { url: `${SERVICE}/`, access: { organisations: ['voorbeeldstad'] } });
writeFileSync(catalogueFile, JSON.stringify(demo));

// The portal chooses its port as it starts (another file's process may take one chosen earlier), so its environment
// names the address it was given.
const journey = useJourney({
  env: (portal) => ({
    CATALOGUE_FILE: catalogueFile,
    // The service's origin, so that the sign-in may lead back there (README "Connecting a data service").
    ALLOWED_RETURN_URLS: `${portal}/,${SERVICE}/`,
    TRUSTED_PROXIES: 'loopback',
  }),
});
const portalPort = () => new URL(journey.portaal.publicUrl).port;

/** The example configuration, pointed at this test's portal, upstream and port. */
function exampleConfig(): string {
  let config = readFileSync(new URL('../../deploy/nginx/forward-auth.conf', import.meta.url), 'utf8');
  const replace = (from: string, to: string) => {
    expect(config, `the example has '${from}'`).toContain(from);
    config = config.replace(from, to);
  };
  replace('server 127.0.0.1:4455;', `server 127.0.0.1:${portalPort()};`);
  replace('server 127.0.0.1:8080;', `server 127.0.0.1:${upstreamPort};`);
  replace('listen 8443;', `listen 127.0.0.1:${nginxPort};`);
  replace('server_name portaal.example.nl;', 'server_name 127.0.0.1;');
  replace('https://portaal.example.nl/permissies', `${journey.portaal.publicUrl}/permissies`);
  return config;
}

/** Shows what reached it: the path, the portal's headers and the cookies. */
function startUpstream(): Promise<Server> {
  const server = createServer((request, response) => {
    const seen = {
      path: request.url,
      userId: request.headers['x-portaal-user-id'] ?? null,
      email: request.headers['x-portaal-email'] ?? null,
      name: request.headers['x-portaal-name'] ?? null,
      organisation: request.headers['x-portaal-organisation'] ?? null,
      dataRoles: request.headers['x-portaal-data-roles'] ?? null,
      cookie: request.headers.cookie ?? '',
    };
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html lang="nl"><head><title>Wijkmonitor</title></head><body><main>' +
        `<h1>Wijkmonitor</h1><pre id="ontvangen">${JSON.stringify(seen).replace(/</g, '\\u003c')}</pre>` +
        '</main></body></html>',
    );
  });
  return new Promise((resolve) => server.listen(upstreamPort, '127.0.0.1', () => resolve(server)));
}

let nginx: Nginx;
let upstream: Server;
beforeAll(async () => {
  upstream = await startUpstream();
  nginx = await startNginx(exampleConfig(), nginxPort);
});
afterAll(async () => {
  await nginx?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

/** A member of `org` with a password (and, where the organisation requires it, an authenticator app). */
async function member(org: string, first: string, last: string) {
  const email = `${org}-${randomUUID().slice(0, 6)}@voorbeeldstad.nl`;
  cli(journey.portaal, [
    ...['user', 'create', '--email', email, '--first-name', first, '--last-name', last],
    ...['--password', PASSWORD, '--org', org],
  ]);
  const secret = org === 'dego' ? undefined : (await signInAtAal2(journey.portaal, email, PASSWORD)).secret;
  return { email, secret };
}

async function signIn(page: Page, email: string) {
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Wachtwoord', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
}

const received = async (page: Page) => JSON.parse(await page.locator('#ontvangen').innerText());

describe('a data service behind nginx', () => {
  it('journey 20: signed out, the service sends the browser to sign in and back; it sees who signed in', async () => {
    const zoe = await member('voorbeeldstad', 'Zoë', 'de Wit');
    const page = await journey.person('zoë');
    // Headers a browser makes up never reach the service: nginx puts the portal's in their place.
    await page.setExtraHTTPHeaders({ 'X-Portaal-Email': 'nep@voorbeeld.nl', 'X-Portaal-Data-Roles': 'alles' });
    const address = `${SERVICE}/kaart?wijk=12&jaar=2025`;
    await page.goto(address);
    await page.waitForURL((url) => url.port === portalPort() && url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('return_to')).toBe(address);
    await expectAccessible(page, 'the sign-in on the way to a service');
    await signIn(page, zoe.email);
    await page.waitForURL((url) => url.searchParams.get('aal') === 'aal2');
    await enterTotpCode(page, zoe.secret!);
    await page.waitForURL((url) => url.port === String(nginxPort) && url.pathname === '/kaart');
    expect(page.url()).toBe(address);

    const seen = await received(page);
    expect(seen).toMatchObject({ path: '/kaart?wijk=12&jaar=2025', email: zoe.email, organisation: 'voorbeeldstad' });
    expect(seen.userId).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.dataRoles).toBeNull();
    expect(seen.name).toBe('Zo%C3%AB de Wit');
    expect(decodeURIComponent(seen.name)).toBe('Zoë de Wit');
    // The portal's session cookie stays with the portal; the service gets the rest.
    expect(seen.cookie).not.toContain('ory_kratos_session');

    // Signed in, the next page of the service opens at once.
    await page.goto(`${SERVICE}/buurt/3`);
    expect(page.url()).toBe(`${SERVICE}/buurt/3`);
    expect((await received(page)).path).toBe('/buurt/3');

    // Signed out in the portal, the service asks for the sign-in again.
    await page.goto(`${journey.portaal.publicUrl}/permissies`);
    await page.getByRole('link', { name: 'Uitloggen' }).first().click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.goto(`${SERVICE}/buurt/3`);
    await page.waitForURL((url) => url.port === portalPort() && url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('return_to')).toBe(`${SERVICE}/buurt/3`);
  });

  it('journey 20: signed in without access, nginx answers 403 and the service sees nothing', async () => {
    const bram = await member('dego', 'Bram', 'Analist');
    const page = await journey.person('bram');
    await page.goto('/login');
    await signIn(page, bram.email);
    await page.waitForURL((url) => url.pathname === '/permissies');
    const answer = await page.goto(`${SERVICE}/kaart`);
    expect(answer?.status()).toBe(403);
    expect(await page.locator('#ontvangen').count()).toBe(0);
    await page.getByRole('heading', { name: 'Geen toegang', level: 1 }).waitFor();
    await expectAccessible(page, 'the refusal of a service');
    await page.getByRole('link', { name: 'Naar je datavoorzieningen' }).click();
    await page.waitForURL((url) => url.port === portalPort() && url.pathname === '/permissies');
    expect(nginx.errorLog()).not.toMatch(/auth request unexpected status/);
  });
});
