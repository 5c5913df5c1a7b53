import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLogoutReceiver } from '../support/oidc-service.js';
import { startBalancer } from '../support/balancer.js';
import { sharedTestDatabase } from '../support/database.js';
import { freePorts } from '../support/free-port.js';
import { authorizationRequest, discoverClient, followWhileOnPortal } from '../support/oidc-relying-party.js';
import { enrolTotp, loginWithPassword } from '../support/flows.js';
import { csrfTokenOf, explained, identityApi, newBrowser, type Browser } from '../support/ory.js';
import { testSigningKeys } from '../support/signing-keys.js';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { api, createMember, setPasswordThroughLink, writeTuple } from '../support/portal-users.js';

// The portal's session rules for the data services. First the rule of
// docs/security.md#54-single-sign-on-ends-with-the-portal-session: whatever ends a portal session ends everything a
// data service got from it. For each way a session ends, a service signed in through the portal (with
// openid-client as relying party) finds its access token refused at userinfo, its refresh token `invalid_grant`, a
// valid logout token at its back-channel address, and forward authentication answers 401. Two processes share one
// database behind a round-robin balancer, so the end happens at one process and is noticed at the other. Then a
// service that asks for a fresh sign-in (`max_age`, `prompt=login`) gets one, and `prompt=none` its answer.

const SECRET = 'jeugdzorg-dashboard-geheim-van-minstens-32-tekens';
const PASSWORD = 'Lange-Zomeravond-Fietstocht-9';
const SERVICE = 'jeugdzorg-dashboard';
const ROLE_SERVICE = 'begrotingsvergelijker';

interface Deployment {
  url: string;
  portals: Portaal[];
  close(): Promise<void>;
}

let workDir: string;
let catalogueFile: string;
let rp: string;
let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;
let logoutTokens: string[];
let main: Deployment;
let short: Deployment;

/** Two processes on one new database behind a balancer, as several replicas behind a load balancer run. */
async function deployment(extra: Record<string, string> = {}): Promise<Deployment> {
  const database = await sharedTestDatabase();
  const [port] = await freePorts(1);
  const url = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: database.url,
    PUBLIC_URL: url,
    SECRETS_COOKIE: randomBytes(32).toString('base64url'),
    OIDC_JWKS: await testSigningKeys(),
    CATALOGUE_FILE: catalogueFile,
    OIDC_CLIENT_SECRET_JEUGDZORG: SECRET,
    OIDC_CLIENT_SECRET_BEGROTING: SECRET,
    ...extra,
  };
  const first = await startPortaal({ env });
  const second = await startPortaal({ env });
  const balancer = await startBalancer([first, second], port);
  return {
    url,
    portals: [first, second],
    async close() {
      await balancer.close();
      await Promise.all([first.stop(), second.stop()]);
      database.remove();
    },
  };
}

beforeAll(async () => {
  receiver = await startLogoutReceiver();
  rp = receiver.url;
  logoutTokens = receiver.tokens;
  workDir = mkdtempSync(path.join(os.tmpdir(), 'single-logout-'));
  const catalogue = JSON.parse(
    readFileSync(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url), 'utf8'),
  );
  const service = catalogue.services.find((s: { id: string }) => s.id === SERVICE);
  // DEGO asks no second factor, so its people sign in with the password alone.
  service.access.organisations = ['dego'];
  service.oidc = {
    clientId: 'jeugdzorg',
    redirectUris: [`${rp}/callback`],
    postLogoutRedirectUris: [`${rp}/uitgelogd`],
    backchannelLogoutUri: `${rp}/backchannel`,
  };
  // A service admitted through a data role (DEGO's 'Analyse'), to withdraw in an access review.
  catalogue.services.find((s: { id: string }) => s.id === ROLE_SERVICE).oidc = {
    clientId: 'begroting',
    redirectUris: [`${rp}/callback`],
    postLogoutRedirectUris: [`${rp}/uitgelogd`],
  };
  catalogueFile = path.join(workDir, 'catalogue.json');
  writeFileSync(catalogueFile, JSON.stringify(catalogue));
  [main, short] = await Promise.all([
    deployment(),
    deployment({ SESSION_LIFESPAN: '10s', SESSION_IDLE_TIMEOUT: '5s' }),
  ]);
  await createMember(main.portals[0]!, { email: 'beheer@dego.nl', password: PASSWORD, org: 'dego', admin: true });
}, 120_000);

afterAll(async () => {
  await main?.close();
  await short?.close();
  await receiver?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Users API through the balancer, as the portal's screens call it. */
const usersApi = (at: Deployment, who: Browser, method: string, address: string, body?: unknown) =>
  api({ publicUrl: at.url } as Portaal, who, method, address, body);

let people = 0;
/** A new DEGO member with a password, made through the admin APIs; returns their address and identity id. */
async function newPerson(at: Deployment) {
  people += 1;
  const email = `persoon-${people}-${randomBytes(3).toString('hex')}@dego.nl`;
  await createMember(at.portals[0]!, { email, password: PASSWORD, org: 'dego' });
  const { data } = await identityApi(at.portals[0]!.adminUrl).listIdentities({ credentialsIdentifier: email });
  return { email, id: data[0]!.id };
}

/** Follows the browser's redirects from `start` while they stay on the portal; answers where they left it. */
const follow = (at: Deployment, browser: Browser, start: string) => followWhileOnPortal(at.url, browser, start);

const discover = (at: Deployment, clientId = 'jeugdzorg') => discoverClient(at.url, clientId, SECRET);

const authorization = (config: client.Configuration, extra: Record<string, string> = {}) =>
  authorizationRequest(config, `${rp}/callback`, extra);

interface SignedIn {
  browser: Browser;
  config: client.Configuration;
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  sub: string;
  sid: string;
}

/** Signs the person in at the portal, then at the service through the provider; checks that everything works. */
async function signedInAtService(at: Deployment, email: string, signedInAlready?: Browser): Promise<SignedIn> {
  const browser = signedInAlready ?? newBrowser(at.url);
  if (!signedInAlready) expect((await loginWithPassword(browser, email, PASSWORD)).session).toBeDefined();
  const config = await discover(at);
  const { url, verifier, state } = await authorization(config);
  const callback = await follow(at, browser, url.href);
  expect(callback.origin + callback.pathname).toBe(`${rp}/callback`);
  const tokens = await client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  const claims = tokens.claims()!;
  const signedIn = { browser, config, tokens, sub: claims.sub, sid: String(claims.sid) };
  expect((await client.fetchUserInfo(config, tokens.access_token, claims.sub)).sub).toBe(claims.sub);
  expect(await forwardAuth(at, browser)).toBe(200);
  return signedIn;
}

const forwardAuth = async (at: Deployment, browser: Browser, service = SERVICE) =>
  (await browser.fetch(`${at.url}/api/forward-auth?service=${service}`, { headers: { accept: 'application/json' } }))
    .status;

/** The logout tokens received for this sign-in, verified: signature, issuer, audience, subject and session. */
async function logoutTokensFor(at: Deployment, signedIn: SignedIn) {
  const keys = createRemoteJWKSet(new URL(signedIn.config.serverMetadata().jwks_uri!));
  const verified = [];
  // Both deployments' services post to the same receiver: only this issuer's tokens are verified here.
  for (const token of logoutTokens.filter((t) => decodeJwt(t).iss === `${at.url}/oidc`)) {
    const { payload } = await jwtVerify(token, keys, { issuer: `${at.url}/oidc`, audience: 'jeugdzorg' });
    if (payload.sub === signedIn.sub && payload.sid === signedIn.sid) verified.push(payload);
  }
  return verified;
}

/** Everything the service got from the session is gone: the four checks of the rule. */
async function expectEnded(at: Deployment, signedIn: SignedIn, forwardAuthBrowser = signedIn.browser) {
  const { config, tokens, sub } = signedIn;
  await expect(
    client.fetchUserInfo(config, tokens.access_token, sub),
    'userinfo refuses the access token',
  ).rejects.toMatchObject({ status: 401 });
  await expect(
    client.refreshTokenGrant(config, tokens.refresh_token!),
    'the refresh token is dead',
  ).rejects.toMatchObject({ error: 'invalid_grant' });
  await expect.poll(async () => (await logoutTokensFor(at, signedIn)).length, { timeout: 10_000 }).toBe(1);
  const [payload] = await logoutTokensFor(at, signedIn);
  expect(payload!.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
  expect(await forwardAuth(at, forwardAuthBrowser)).toBe(401);
}

describe('a portal session that ends takes every service sign-in made from it along', () => {
  it('ends at sign-out in the portal', async () => {
    const person = await newPerson(main);
    const signedIn = await signedInAtService(main, person.email);
    const logout = await explained(signedIn.browser.frontend.createBrowserLogoutFlow({}));
    await signedIn.browser.fetch(logout.logout_url, { redirect: 'manual' });
    await expectEnded(main, signedIn);
  });

  it('ends at sign-out confirmed at a service, and the next sign-in there asks for the password', async () => {
    const person = await newPerson(main);
    const signedIn = await signedInAtService(main, person.email);
    const logout = client.buildEndSessionUrl(signedIn.config, {
      id_token_hint: signedIn.tokens.id_token!,
      post_logout_redirect_uri: `${rp}/uitgelogd`,
    });
    const question = await signedIn.browser.fetch(logout.href);
    const page = await question.text();
    expect(question.headers.get('x-frame-options')).toBe('DENY');
    expect(question.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page).toContain('Je wordt dan ook uitgelogd bij het portaal');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)![1]!;
    const confirmed = await signedIn.browser.fetch(`${main.url}/oidc/session/end/confirm`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(confirmed.headers.get('location')).toMatch(new RegExp(`^${rp}/uitgelogd`));
    expect((await signedIn.browser.fetch(`${main.url}/sessions/whoami`)).status, 'the portal session ended').toBe(401);
    await expectEnded(main, signedIn);
    const again = client.buildAuthorizationUrl(signedIn.config, {
      redirect_uri: `${rp}/callback`,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    expect((await follow(main, signedIn.browser, again.href)).pathname).toBe('/login');
  });

  it("keeps everything on 'Nee, ingelogd blijven' and says so", async () => {
    const person = await newPerson(main);
    const signedIn = await signedInAtService(main, person.email);
    const logout = client.buildEndSessionUrl(signedIn.config, { id_token_hint: signedIn.tokens.id_token! });
    const page = await (await signedIn.browser.fetch(logout.href)).text();
    const stay = /formaction="([^"]+)"/.exec(page)![1]!.replaceAll('&amp;', '&');
    const stayed = await signedIn.browser.fetch(new URL(stay, main.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: /name="xsrf" value="([^"]+)"/.exec(page)![1]! }).toString(),
    });
    expect(stayed.status).toBe(200);
    const said = await stayed.text();
    expect(said).toContain('Je bent ingelogd gebleven');
    expect(said).toContain('Terug naar Dashboard jeugdzorg');
    expect((await signedIn.browser.fetch(`${main.url}/sessions/whoami`)).status).toBe(200);
    expect((await client.fetchUserInfo(signedIn.config, signedIn.tokens.access_token, signedIn.sub)).sub).toBe(
      signedIn.sub,
    );
    expect((await client.refreshTokenGrant(signedIn.config, signedIn.tokens.refresh_token!)).access_token).toBeTruthy();
    expect(await forwardAuth(main, signedIn.browser)).toBe(200);
  });

  it("ends at 'log out other devices' from another browser", async () => {
    const person = await newPerson(main);
    const signedIn = await signedInAtService(main, person.email);
    const other = newBrowser(main.url);
    await loginWithPassword(other, person.email, PASSWORD);
    await explained(other.frontend.disableMyOtherSessions({}));
    await expectEnded(main, signedIn);
    expect(await forwardAuth(main, other)).toBe(200);
  });

  it("ends at the home organisation's 'Afmelden op alle apparaten'", async () => {
    const person = await newPerson(main);
    const signedIn = await signedInAtService(main, person.email);
    const admin = newBrowser(main.url);
    await loginWithPassword(admin, 'beheer@dego.nl', PASSWORD);
    expect((await usersApi(main, admin, 'DELETE', `/users/${person.id}/sessions`)).status).toBe(204);
    await expectEnded(main, signedIn);
  });

  it('ends at a block, and the unblock revives nothing', async () => {
    const person = await newPerson(main);
    const signedIn = await signedInAtService(main, person.email);
    const admin = newBrowser(main.url);
    await loginWithPassword(admin, 'beheer@dego.nl', PASSWORD);
    expect((await usersApi(main, admin, 'PUT', `/users/${person.id}`, { state: 'inactive' })).status).toBe(200);
    await expectEnded(main, signedIn);
    expect((await usersApi(main, admin, 'PUT', `/users/${person.id}`, { state: 'active' })).status).toBe(200);
    await expect(client.refreshTokenGrant(signedIn.config, signedIn.tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(client.fetchUserInfo(signedIn.config, signedIn.tokens.access_token, signedIn.sub)).rejects.toThrow();
    expect(await forwardAuth(main, signedIn.browser)).toBe(401);
  });

  it('ends at a deletion', async () => {
    const person = await newPerson(main);
    const signedIn = await signedInAtService(main, person.email);
    const admin = newBrowser(main.url);
    await loginWithPassword(admin, 'beheer@dego.nl', PASSWORD);
    expect((await usersApi(main, admin, 'DELETE', `/users?id=${person.id}`)).status).toBe(204);
    await expectEnded(main, signedIn);
  });

  it('ends at a reset of the second factor', async () => {
    const person = await newPerson(main);
    const browser = newBrowser(main.url);
    await loginWithPassword(browser, person.email, PASSWORD);
    await enrolTotp(browser, -1);
    const signedIn = await signedInAtService(main, person.email, browser);
    const admin = newBrowser(main.url);
    await loginWithPassword(admin, 'beheer@dego.nl', PASSWORD);
    expect((await usersApi(main, admin, 'DELETE', `/users/${person.id}/totp`)).status).toBe(204);
    await expectEnded(main, signedIn);
  });

  it('ends when the password is changed through recovery', async () => {
    const person = await newPerson(main);
    const signedIn = await signedInAtService(main, person.email);
    const { data } = await identityApi(main.portals[1]!.adminUrl).createRecoveryLinkForIdentity({
      createRecoveryLinkForIdentityBody: { identity_id: person.id, expires_in: '1h' },
    });
    const recovered = await setPasswordThroughLink(
      { publicUrl: main.url } as Portaal,
      person.email,
      data.recovery_link,
      'Nieuw-Wachtwoord-Na-Herstel-42',
    );
    await expectEnded(main, signedIn);
    expect(await forwardAuth(main, recovered.browser)).toBe(200);
  });

  it('ends when the session is left alone past the idle timeout', async () => {
    const person = await newPerson(short);
    const signedIn = await signedInAtService(short, person.email);
    await sleep(6_000);
    await expectEnded(short, signedIn);
  });

  it('ends at the absolute timeout, however much it is used', async () => {
    const person = await newPerson(short);
    const signedIn = await signedInAtService(short, person.email);
    const started = Date.now();
    // In use every second, so only the session's lifespan (10 s) can end it.
    while (Date.now() - started < 8_000) {
      expect(await forwardAuth(short, signedIn.browser)).toBe(200);
      await sleep(1_000);
    }
    await sleep(3_000);
    await expectEnded(short, signedIn);
  });
});

describe('a service that asks for a fresh sign-in', () => {
  const asks: Record<string, string>[] = [{ max_age: '0' }, { prompt: 'login' }, { max_age: '1' }];
  for (const asked of asks) {
    it(`sends the person to sign in again for ${new URLSearchParams(asked)}, and auth_time says when`, async () => {
      const person = await newPerson(main);
      const { browser, config, tokens } = await signedInAtService(main, person.email);
      const before = tokens.claims()!.auth_time!;
      await sleep(1_100);
      const started = await authorization(config, asked);
      const atLogin = await follow(main, browser, started.url.href);
      expect(atLogin.pathname).toBe('/login');
      expect(atLogin.searchParams.get('refresh')).toBe('true');
      const interaction = atLogin.searchParams.get('return_to')!;
      expect((await follow(main, browser, interaction)).pathname, 'no code without the sign-in').toBe('/login');

      const flow = await explained(browser.frontend.createBrowserLoginFlow({ refresh: true }));
      await explained(
        browser.frontend.updateLoginFlow({
          flow: flow.id,
          updateLoginFlowBody: {
            method: 'password',
            identifier: person.email,
            password: PASSWORD,
            csrf_token: csrfTokenOf(flow),
          },
        }),
      );
      const callback = await follow(main, browser, interaction);
      expect(callback.origin + callback.pathname).toBe(`${rp}/callback`);
      const fresh = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      });
      expect(fresh.claims()!.auth_time).toBeGreaterThan(before);
    });
  }

  it('asks nothing when the last sign-in is within max_age', async () => {
    const person = await newPerson(main);
    const { browser, config, tokens } = await signedInAtService(main, person.email);
    const started = await authorization(config, { max_age: '3600' });
    const callback = await follow(main, browser, started.url.href);
    expect(callback.origin + callback.pathname).toBe(`${rp}/callback`);
    const again = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    expect(again.claims()!.auth_time).toBe(tokens.claims()!.auth_time);
  });

  it('answers prompt=none with login_required, as the README says', async () => {
    const person = await newPerson(main);
    const { browser, config } = await signedInAtService(main, person.email);
    const started = await authorization(config, { prompt: 'none' });
    const callback = await follow(main, browser, started.url.href);
    expect(callback.origin + callback.pathname).toBe(`${rp}/callback`);
    expect(callback.searchParams.get('error')).toBe('login_required');
  });
});

describe('a data role withdrawn in an access review', () => {
  it('ends what the service it admitted to got from it at once, while the portal session stays', async () => {
    const person = await newPerson(main);
    await writeTuple(main.portals[0]!.adminUrl, 'PUT', {
      namespace: 'subdivisions',
      object: 'analyse_dego',
      relation: 'issuer',
      subject_id: person.id,
    });
    const browser = newBrowser(main.url);
    expect((await loginWithPassword(browser, person.email, PASSWORD)).session).toBeDefined();
    const config = await discover(main, 'begroting');
    const { url, verifier, state } = await authorization(config);
    const callback = await follow(main, browser, url.href);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const sub = tokens.claims()!.sub;
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(await forwardAuth(main, browser, ROLE_SERVICE)).toBe(200);

    const admin = newBrowser(main.url);
    await loginWithPassword(admin, 'beheer@dego.nl', PASSWORD);
    const toDo = (await usersApi(main, admin, 'GET', '/access-review')).body as {
      people: { userId: string; dataRoles: { roleId: string }[] }[];
    };
    const decisions = toDo.people.flatMap((p) =>
      p.dataRoles.map((r) => ({
        userId: p.userId,
        roleId: r.roleId,
        decision: p.userId === person.id ? 'withdraw' : 'keep',
      })),
    );
    expect((await usersApi(main, admin, 'POST', '/access-reviews', { decisions })).status).toBe(201);

    expect(await forwardAuth(main, browser, ROLE_SERVICE)).toBe(403);
    await expect(client.fetchUserInfo(config, refreshed.access_token, sub)).rejects.toMatchObject({ status: 401 });
    await expect(
      client.refreshTokenGrant(config, refreshed.refresh_token ?? tokens.refresh_token!),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await forwardAuth(main, browser)).toBe(200);
  });
});
