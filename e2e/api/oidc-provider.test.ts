import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLogoutReceiver } from '../support/oidc-service.js';
import { testSigningKeys } from '../support/signing-keys.js';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { freePorts } from '../support/free-port.js';
import { startBalancer } from '../support/balancer.js';
import { sharedTestDatabase } from '../support/database.js';
import { newBrowser, type Browser } from '../support/ory.js';
import { enrolTotp, loginSecondFactor, loginWithPassword } from '../support/flows.js';
import { api, DEMO_PASSWORD, portaalCli, signInAtAal1 } from '../support/portal-users.js';

// The portal as OpenID Connect provider for the data services (README, 'Single sign-on'), with openid-client as the
// relying party: the code flow with PKCE, the ID token, userinfo, refresh, RP-initiated and back-channel logout, a
// person without access refused, and the second factor where the person's organisation requires it. The sign-in
// itself is the portal's, driven through its Kratos API with the same cookies, as a browser would carry them.

const SECRET = 'jeugdzorg-dashboard-geheim-van-minstens-32-tekens';
const SCOPE = 'openid email profile organisations';
const MEES = 'medewerker@voorbeeldstad.nl';

let portaal: Portaal;
let issuer: URL;
let rp: string;
let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;
let logoutTokens: string[];
let workDir: string;
let catalogueFile: string;

beforeAll(async () => {
  receiver = await startLogoutReceiver();
  rp = receiver.url;
  logoutTokens = receiver.tokens;
  workDir = mkdtempSync(path.join(os.tmpdir(), 'oidc-test-'));
  const catalogue = JSON.parse(
    readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8'),
  );
  const service = (id: string) => catalogue.services.find((s: { id: string }) => s.id === id);
  service('jeugdzorg-dashboard').oidc = {
    clientId: 'jeugdzorg',
    redirectUris: [`${rp}/callback`],
    postLogoutRedirectUris: [`${rp}/uitgelogd`],
    backchannelLogoutUri: `${rp}/backchannel`,
    initiateLoginUri: `${rp}/start`,
  };
  service('begrotingsvergelijker').oidc = { clientId: 'begroting', type: 'public', redirectUris: [`${rp}/begroting`] };
  catalogueFile = path.join(workDir, 'catalogue.json');
  writeFileSync(catalogueFile, JSON.stringify(catalogue));
  portaal = await startPortaal({
    args: ['--demo'],
    env: { CATALOGUE_FILE: catalogueFile, OIDC_CLIENT_SECRET_JEUGDZORG: SECRET },
  });
  issuer = new URL(`${portaal.publicUrl}/oidc`);
});

afterAll(async () => {
  await portaal?.stop();
  await receiver?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const discover = (clientId: string, auth: client.ClientAuth) =>
  client.discovery(issuer, clientId, undefined, auth, { execute: [client.allowInsecureRequests] });

/**
 * Follows the browser's redirects from `start` until they leave the portal (the service's callback), reach the
 * portal's sign-in screen, or end in a page; answers where they stopped and, for a page, the answer.
 */
async function follow(browser: Browser, start: string): Promise<{ url: URL; response?: Response }> {
  let url = new URL(start);
  for (let hop = 0; hop < 12; hop += 1) {
    if (url.origin !== portaal.publicUrl || url.pathname === '/login') return { url };
    const response = await browser.fetch(url.href, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return { url, response };
    url = new URL(location, url);
  }
  throw new Error(`more than 12 redirects from ${start}`);
}

interface Authorization {
  config: client.Configuration;
  url: URL;
  verifier: string;
  state: string;
}

async function authorization(
  clientId: string,
  auth: client.ClientAuth,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<Authorization> {
  const config = await discover(clientId, auth);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { config, url, verifier, state };
}

/** The portal's sign-in screen that the interaction sent the browser to, and the interaction it returns to. */
function loginScreen(url: URL) {
  expect(url.pathname, 'the person is sent to the portal to sign in').toBe('/login');
  const returnTo = url.searchParams.get('return_to')!;
  expect(returnTo).toMatch(new RegExp(`^${portaal.publicUrl}/oidc/interaction/`));
  return { aal: url.searchParams.get('aal'), returnTo };
}

async function tokensFor(started: Authorization, callback: URL) {
  return client.authorizationCodeGrant(started.config, callback, {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
  });
}

const auditOf = () =>
  portaalCli(portaal, ['audit', 'export'], 'portal')
    .stdout.split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.action === 'service.sign_in');

describe('OpenID Connect provider', () => {
  it('publishes its discovery document for the issuer', async () => {
    const config = await discover('jeugdzorg', client.ClientSecretBasic(SECRET));
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(issuer.href);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.backchannel_logout_supported).toBe(true);
    expect(metadata.end_session_endpoint).toBe(`${issuer.href}/session/end`);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'organisations']));
  });

  it('signs a person in with the second factor their organisation requires, then refreshes and logs out', async () => {
    // The person linked an authenticator app before.
    const secret = await enrolTotp((await signInAtAal1(portaal, MEES, DEMO_PASSWORD)).browser, -1);
    const browser = newBrowser(portaal.publicUrl);
    const started = await authorization('jeugdzorg', client.ClientSecretBasic(SECRET), `${rp}/callback`);
    const first = loginScreen((await follow(browser, started.url.href)).url);
    expect(first.aal).toBeNull();

    // The password alone is not enough for Gemeente Voorbeeldstad: back at the interaction, the second step.
    expect((await loginWithPassword(browser, MEES, DEMO_PASSWORD)).redirectBrowserTo).toBeDefined();
    const second = loginScreen((await follow(browser, first.returnTo)).url);
    expect(second.aal).toBe('aal2');
    expect(second.returnTo).toBe(first.returnTo);
    await loginSecondFactor(browser, secret);

    const back = await follow(browser, second.returnTo);
    expect(back.url.origin + back.url.pathname).toBe(`${rp}/callback`);
    const tokens = await tokensFor(started, back.url);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: issuer.href,
      aud: 'jeugdzorg',
      email: MEES,
      email_verified: expect.any(Boolean),
      name: 'Mees Medewerker',
      given_name: 'Mees',
      family_name: 'Medewerker',
      organisation: 'voorbeeldstad',
      organisations: ['voorbeeldstad'],
      // Only the data roles the service's access rule names.
      data_roles: ['sociaal-domein_voorbeeldstad'],
      acr: 'aal2',
      amr: ['pwd', 'otp'],
    });
    expect(claims.auth_time).toBeGreaterThan(Date.now() / 1000 - 300);
    const userinfo = await client.fetchUserInfo(started.config, tokens.access_token, claims.sub);
    expect(userinfo).toMatchObject({
      sub: claims.sub,
      email: 'medewerker@voorbeeldstad.nl',
      organisation: 'voorbeeldstad',
    });

    expect(tokens.refresh_token, 'a confidential client gets a refresh token').toBeTruthy();
    const refreshed = await client.refreshTokenGrant(started.config, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await client.fetchUserInfo(started.config, refreshed.access_token, claims.sub)).sub).toBe(claims.sub);

    // 'Datavoorzieningen' opens the service at its initiate_login_uri, naming the issuer and the service's address.
    const listed = (await api(portaal, browser, 'GET', '/services')).body.services;
    const dashboard = listed.find((s: { id: string }) => s.id === 'jeugdzorg-dashboard');
    const signIn = new URL(dashboard.signInUrl);
    expect(signIn.origin + signIn.pathname).toBe(`${rp}/start`);
    expect(signIn.searchParams.get('iss')).toBe(issuer.href);
    expect(signIn.searchParams.get('target_link_uri')).toBe(dashboard.url);
    expect(listed.find((s: { id: string }) => s.id === 'wijkmonitor').signInUrl).toBeUndefined();

    // A second sign-in to the same service asks nothing: the portal's session is there.
    const again = await authorization('jeugdzorg', client.ClientSecretBasic(SECRET), `${rp}/callback`);
    const silent = await follow(browser, again.url.href);
    expect(silent.url.origin + silent.url.pathname).toBe(`${rp}/callback`);
    expect((await tokensFor(again, silent.url)).claims()!.sub).toBe(claims.sub);

    // RP-initiated logout: the provider asks, then ends its session and tells the service over the back channel.
    const logout = client.buildEndSessionUrl(started.config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: `${rp}/uitgelogd`,
    });
    const question = await follow(browser, logout.href);
    expect(question.response?.status).toBe(200);
    const page = await question.response!.text();
    expect(page).toContain('Wil je uitloggen');
    const action = /<form[^>]*action="([^"]+)"/.exec(page)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)![1]!;
    const confirmed = await browser.fetch(new URL(action, portaal.publicUrl).href, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect([302, 303]).toContain(confirmed.status);
    expect(confirmed.headers.get('location')).toMatch(new RegExp(`^${rp}/uitgelogd`));
    await expect.poll(() => logoutTokens.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const { payload } = await jwtVerify(
      logoutTokens.at(-1)!,
      createRemoteJWKSet(new URL(started.config.serverMetadata().jwks_uri!)),
      { issuer: issuer.href, audience: 'jeugdzorg' },
    );
    expect(payload.sub).toBe(claims.sub);
    expect(payload.sid).toBe(claims.sid);
    expect(payload.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });

    const audited = auditOf().filter((e) => e.actorId === claims.sub);
    expect(audited.map((e) => [e.result, e.details.service])).toContainEqual(['success', 'jeugdzorg-dashboard']);
  });

  it('sends a person without a second factor yet, where it is required, to sign in and link one', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const started = await authorization('jeugdzorg', client.ClientSecretBasic(SECRET), `${rp}/callback`);
    const first = loginScreen((await follow(browser, started.url.href)).url);
    expect((await loginWithPassword(browser, 'beheerder@voorbeeldstad.nl', DEMO_PASSWORD)).session).toBeDefined();
    // Not yet to the service: the sign-in screen, which sends an aal1 session without an app to link one first.
    const again = loginScreen((await follow(browser, first.returnTo)).url);
    expect(again.aal).toBeNull();
    expect(again.returnTo).toBe(first.returnTo);
    await enrolTotp(browser, -1);
    const back = await follow(browser, first.returnTo);
    expect(back.url.origin + back.url.pathname).toBe(`${rp}/callback`);
    expect((await tokensFor(started, back.url)).claims()).toMatchObject({ acr: 'aal2', amr: ['pwd', 'otp'] });
  });

  it('lets a person whose organisation does not require it in with the password, amr pwd', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const started = await authorization('begroting', client.None(), `${rp}/begroting`);
    const login = loginScreen((await follow(browser, started.url.href)).url);
    await loginWithPassword(browser, 'analist@dego.nl', DEMO_PASSWORD);
    const back = await follow(browser, login.returnTo);
    expect(back.url.origin + back.url.pathname).toBe(`${rp}/begroting`);
    const tokens = await tokensFor(started, back.url);
    expect(tokens.claims()).toMatchObject({
      aud: 'begroting',
      acr: 'aal1',
      amr: ['pwd'],
      organisation: 'dego',
      data_roles: ['analyse_dego'],
    });
    expect(tokens.refresh_token, 'a public client gets no refresh token').toBeUndefined();
  });

  it('answers unmet_authentication_requirements to a client asking aal2 of a person without a 2nd factor', async () => {
    const browser = newBrowser(portaal.publicUrl);
    await loginWithPassword(browser, 'analist@dego.nl', DEMO_PASSWORD);
    const started = await authorization('begroting', client.None(), `${rp}/begroting`, { acr_values: 'aal2' });
    const { url: end } = await follow(browser, started.url.href);
    expect(end.origin + end.pathname).toBe(`${rp}/begroting`);
    expect(end.searchParams.get('error')).toBe('unmet_authentication_requirements');
  });

  it('refuses a public client without PKCE', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const config = await discover('begroting', client.None());
    const url = client.buildAuthorizationUrl(config, { redirect_uri: `${rp}/begroting`, scope: SCOPE });
    const { url: end } = await follow(browser, url.href);
    expect(end.origin + end.pathname).toBe(`${rp}/begroting`);
    expect(end.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a person the service does not admit: a Dutch page, and access_denied for the service', async () => {
    const browser = newBrowser(portaal.publicUrl);
    await loginWithPassword(browser, 'analist@dego.nl', DEMO_PASSWORD);
    const started = await authorization('jeugdzorg', client.ClientSecretBasic(SECRET), `${rp}/callback`);
    const refused = await follow(browser, started.url.href);
    expect(refused.response?.status).toBe(403);
    const page = await refused.response!.text();
    expect(page).toContain('lang="nl"');
    expect(page).toContain('Je hebt geen toegang tot Dashboard jeugdzorg');
    const action = /<form method="post" action="([^"]+)"/.exec(page)![1]!;
    const aborted = await browser.fetch(new URL(action, portaal.publicUrl).href, {
      method: 'POST',
      redirect: 'manual',
    });
    const { url: end } = await follow(browser, new URL(aborted.headers.get('location')!, portaal.publicUrl).href);
    expect(end.origin + end.pathname).toBe(`${rp}/callback`);
    expect(end.searchParams.get('error')).toBe('access_denied');
    expect(end.searchParams.get('state')).toBe(started.state);
    expect(auditOf().some((e) => e.actorEmail === 'analist@dego.nl' && e.result === 'denied')).toBe(true);
  });

  it('refuses a confidential client with a wrong secret', async () => {
    const config = await discover('jeugdzorg', client.ClientSecretBasic('niet-het-geheim-maar-wel-lang-genoeg-123'));
    const refusal = await client.refreshTokenGrant(config, 'onbekend').then(
      () => undefined,
      (error: { status?: number }) => error,
    );
    expect(refusal?.status, 'the token endpoint refuses the client').toBe(401);
  });

  it('keeps the "Unsupported runtime" warning out of the server log', () => {
    expect(portaal.output()).not.toContain('Unsupported runtime');
    expect(portaal.output()).not.toContain('oidc-provider WARNING');
  });
});

describe('OpenID Connect provider on several processes', () => {
  it('signs in, refreshes and answers userinfo through two processes behind a load balancer', async () => {
    // What the processes share: the database, the cookie secret and the signing keys (README, 'Single sign-on').
    const database = await sharedTestDatabase();
    const [port] = await freePorts(1);
    const publicUrl = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: database.url,
      PUBLIC_URL: publicUrl,
      SECRETS_COOKIE: randomBytes(32).toString('base64url'),
      OIDC_JWKS: await testSigningKeys(),
      CATALOGUE_FILE: catalogueFile,
      OIDC_CLIENT_SECRET_JEUGDZORG: SECRET,
    };
    const first = await startPortaal({ args: ['--demo'], env });
    const second = await startPortaal({ env });
    // Round robin: each request goes to the other process than the one before.
    const balancer = await startBalancer([first, second], port);
    try {
      const shared = new URL(`${publicUrl}/oidc`);
      const config = await client.discovery(shared, 'jeugdzorg', undefined, client.ClientSecretBasic(SECRET), {
        execute: [client.allowInsecureRequests],
      });
      const bea = newBrowser(publicUrl);
      expect((await loginWithPassword(bea, 'beheerder@voorbeeldstad.nl', DEMO_PASSWORD)).session).toBeDefined();
      await enrolTotp(bea, -1);
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: `${rp}/callback`,
        scope: SCOPE,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      let at = new URL(url);
      for (let hop = 0; hop < 12 && at.origin === publicUrl; hop += 1) {
        const response = await bea.fetch(at.href, { redirect: 'manual' });
        const location = response.headers.get('location');
        expect(location, `${at.pathname} answered ${response.status}`).toBeTruthy();
        at = new URL(location!, at);
      }
      expect(at.origin + at.pathname).toBe(`${rp}/callback`);
      const tokens = await client.authorizationCodeGrant(config, at, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      const sub = tokens.claims()!.sub;
      for (let call = 0; call < 2; call += 1) {
        expect((await client.fetchUserInfo(config, tokens.access_token, sub)).email).toBe('beheerder@voorbeeldstad.nl');
      }
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect((await client.fetchUserInfo(config, refreshed.access_token, sub)).sub).toBe(sub);
    } finally {
      await balancer.close();
      await Promise.all([first.stop(), second.stop()]);
      database.remove();
    }
  }, 120_000);

  it('refuses OpenID Connect while two processes publish keys each generated, and serves once one stops', async () => {
    // A hand-made deployment: one database, but each process its own DATA_DIR and no OIDC_JWKS, so each generated a
    // key; a token of one would fail at a service that fetched the other's keys (docs/operations.md).
    const database = await sharedTestDatabase();
    const env = { DATABASE_URL: database.url, CATALOGUE_FILE: catalogueFile, OIDC_JWKS: '' };
    const first = await startPortaal({ args: ['--demo'], env });
    const second = await startPortaal({ env });
    let secondStopped: Promise<void> | undefined;
    const stopSecond = () => (secondStopped ??= second.stop());
    const discovery = (portal: Portaal) => fetch(`${portal.publicUrl}/oidc/.well-known/openid-configuration`);
    try {
      const refused = await discovery(second);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.text()).toContain('Inloggen bij datavoorzieningen kan nu niet');
      expect(second.output()).toContain('OpenID Connect refused: another process publishes other signing keys');
      await expect.poll(async () => (await discovery(first)).status, { timeout: 12_000, interval: 250 }).toBe(503);
      expect((await fetch(`${first.publicUrl}/oidc/jwks`)).status).toBe(503);
      expect((await fetch(`${first.publicUrl}/login`)).status, 'the rest of the portal still works').toBe(200);

      await stopSecond();
      // A stopping process withdraws its keys, and the first looks again at its next announcement (every 5 s). A
      // withdrawal the database refused (busy, on a loaded machine) is not retried: then the stopped process counts
      // until it has not been heard of for 15 s (signing-key-agreement.ts). 12 s was once too short on a loaded run.
      await expect.poll(async () => (await discovery(first)).status, { timeout: 25_000, interval: 250 }).toBe(200);
    } finally {
      await Promise.all([first.stop(), stopSecond()]);
      database.remove();
    }
  }, 120_000);
});
