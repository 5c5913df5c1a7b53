import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import {
  JSON_HEADERS,
  HTML,
  csrfTokenOf,
  explained,
  failure,
  identityApi,
  newBrowser,
  newNativeClient,
  type Browser,
} from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { enrolTotp, loginWithPassword, signedInPerson } from '../support/flows.js';

/**
 * Rows of the comparison with Kratos v26 (docs/kratos-compatibility.md#comparison-with-kratos-v26) for settings and
 * logout that the other files do not cover: no session, another identity, an aal1 session of an identity with a
 * second factor, expired flows, and logout in each mode.
 */
let portaal: Portaal;
let shortFlows: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
  shortFlows = await startPortaal({ env: { FLOW_LIFESPAN: '3s', PRIVILEGED_SESSION_MAX_AGE: '2s' } });
});
afterAll(async () => {
  try {
    await portaal?.stop();
  } finally {
    await shortFlows?.stop();
  }
});

const cookieNamed = async (browser: Browser, prefix: string) =>
  (await browser.jar.getCookies(portaal.publicUrl)).find((c) => c.key.startsWith(prefix));

describe('settings without a session', () => {
  it('creating: API 401 session_inactive, HTML 303 to the login flow keeping return_to', async () => {
    const api = await failure(newNativeClient(portaal.publicUrl).createNativeSettingsFlow());
    expect(api.status).toBe(401);
    expect(api.body.error).toMatchObject({
      id: 'session_inactive',
      reason: 'This endpoint can only be accessed with a valid session. Please log in and try again.',
    });
    const returnTo = `${portaal.publicUrl}/permissies`;
    const html = await fetch(`${portaal.publicUrl}/self-service/settings/browser?return_to=${returnTo}`, {
      redirect: 'manual',
      headers: HTML,
    });
    expect(html.status).toBe(303);
    const login = new URL(html.headers.get('location')!);
    expect(login.pathname).toBe('/self-service/login/browser');
    expect(login.searchParams.get('return_to')).toBe(returnTo);
  });

  it('fetching or submitting: JSON 401 without an error id, an HTML submit 302 to the login screen', async () => {
    const { browser } = await signedInPerson(portaal);
    const flow = await explained(browser.frontend.createBrowserSettingsFlow({}));
    const stranger = newBrowser(portaal.publicUrl);
    const fetched = await failure(stranger.frontend.getSettingsFlow({ id: flow.id }));
    expect(fetched.status).toBe(401);
    expect(fetched.body.error.id).toBeUndefined();
    expect(fetched.body.error.reason).toBe('A valid Ory Session Cookie or Ory Session Token is missing.');
    const html = await fetch(`${portaal.publicUrl}/self-service/settings?flow=${flow.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ method: 'profile', csrf_token: csrfTokenOf(flow) }).toString(),
    });
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe(`${portaal.publicUrl}/login`);
  });
});

describe('settings of another identity, and at aal1 with a second factor', () => {
  it('another identity’s flow: 403 security_identity_mismatch on fetch and on submit', async () => {
    const owner = await signedInPerson(portaal);
    const other = await signedInPerson(portaal);
    const flow = await explained(owner.browser.frontend.createBrowserSettingsFlow({}));
    const fetched = await failure(other.browser.frontend.getSettingsFlow({ id: flow.id }));
    expect(fetched.status).toBe(403);
    expect(fetched.body.error).toMatchObject({
      id: 'security_identity_mismatch',
      reason: 'The request was made for another identity and has been blocked for security reasons.',
    });
    const submitted = await failure(
      other.browser.frontend.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: {
          method: 'profile',
          traits: { email: other.user.email },
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(submitted.status).toBe(403);
    expect(submitted.body.error.id).toBe('security_identity_mismatch');
  });

  it('an aal1 session: 403 session_aal2_required, back to the settings screen with this flow afterwards', async () => {
    const { user, browser } = await signedInPerson(portaal);
    await enrolTotp(browser);
    const flow = await explained(browser.frontend.createBrowserSettingsFlow({}));
    const aal1 = newBrowser(portaal.publicUrl);
    expect((await loginWithPassword(aal1, user.email, user.password)).redirectBrowserTo).toBeDefined();
    const fetched = await failure(aal1.frontend.getSettingsFlow({ id: flow.id }));
    expect(fetched.status).toBe(403);
    expect(fetched.body.error.id).toBe('session_aal2_required');
    const next = new URL(fetched.body.redirect_browser_to);
    expect(next.pathname).toBe('/self-service/login/browser');
    expect(next.searchParams.get('aal')).toBe('aal2');
    expect(next.searchParams.get('return_to')).toBe(`${portaal.publicUrl}/settings?flow=${flow.id}`);
    const created = await failure(aal1.frontend.createBrowserSettingsFlow({}));
    expect(created.status).toBe(403);
    expect(created.body.error.id).toBe('session_aal2_required');
  });
});

describe('a privileged change after PRIVILEGED_SESSION_MAX_AGE', () => {
  it('SPA: 403 session_refresh_required to a refresh login back to the flow; then the change works', async () => {
    const { user, browser } = await signedInPerson(shortFlows);
    const flow = await explained(browser.frontend.createBrowserSettingsFlow({}));
    await new Promise((r) => setTimeout(r, 2_100));
    const password = 'Nieuwe-Lente-Wandeling-93';
    const refused = await failure(
      browser.frontend.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: { method: 'password', password, csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.id).toBe('session_refresh_required');
    const next = new URL(refused.body.redirect_browser_to);
    expect(next.pathname).toBe('/self-service/login/browser');
    expect(next.searchParams.get('refresh')).toBe('true');
    expect(next.searchParams.get('return_to')).toBe(`${shortFlows.publicUrl}/self-service/settings?flow=${flow.id}`);
    const login = await explained(browser.frontend.createBrowserLoginFlow({ refresh: true }));
    await explained(
      browser.frontend.updateLoginFlow({
        flow: login.id,
        updateLoginFlowBody: {
          method: 'password',
          identifier: user.email,
          password: user.password,
          csrf_token: csrfTokenOf(login),
        },
      }),
    );
    const again = await explained(browser.frontend.createBrowserSettingsFlow({}));
    const changed = await explained(
      browser.frontend.updateSettingsFlow({
        flow: again.id,
        updateSettingsFlowBody: { method: 'password', password, csrf_token: csrfTokenOf(again) },
      }),
    );
    expect(changed.state).toBe('success');
  });
});

describe('an expired settings flow', () => {
  it('fetched: 410 without an error id; submitted: 410 self_service_flow_expired with a new flow', async () => {
    const { browser } = await signedInPerson(shortFlows);
    const flow = await explained(browser.frontend.createBrowserSettingsFlow({}));
    await new Promise((r) => setTimeout(r, 3_200));
    const fetched = await failure(browser.frontend.getSettingsFlow({ id: flow.id }));
    expect(fetched.status).toBe(410);
    expect(fetched.body.error.id).toBeUndefined();
    expect(fetched.body.error.details).toEqual({
      redirect_to: `${shortFlows.publicUrl}/self-service/settings/browser`,
    });
    const submitted = await failure(
      browser.frontend.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: {
          method: 'profile',
          traits: { email: 'x@voorbeeldstad.nl' },
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(submitted.status).toBe(410);
    expect(submitted.body.error.id).toBe('self_service_flow_expired');
    expect((await browser.frontend.getSettingsFlow({ id: submitted.body.use_flow_id })).state).toBe('show_form');
  });
});

describe('logout', () => {
  it('without a session: JSON 401 session_inactive; HTML 303 to the error screen', async () => {
    const json = await fetch(`${portaal.publicUrl}/self-service/logout?token=ory_lo_x`, { headers: JSON_HEADERS });
    expect(json.status).toBe(401);
    expect((await json.json()).error.id).toBe('session_inactive');
    for (const path of ['/self-service/logout?token=ory_lo_x', '/self-service/logout/browser']) {
      const html = await fetch(`${portaal.publicUrl}${path}`, { redirect: 'manual', headers: HTML });
      expect(html.status, path).toBe(303);
      expect(new URL(html.headers.get('location')!).pathname, path).toBe('/error');
    }
  });

  it('HTML: 303 to return_to, session cookie expired, a new CSRF cookie; another session’s token 403', async () => {
    const { browser } = await signedInPerson(portaal);
    const other = await signedInPerson(portaal);
    const otherToken = (await other.browser.frontend.createBrowserLogoutFlow({})).logout_token;
    const wrong = await browser.fetch(`${portaal.publicUrl}/self-service/logout?token=${otherToken}`, {
      headers: JSON_HEADERS,
    });
    expect(wrong.status).toBe(403);
    const returnTo = `${portaal.publicUrl}/login`;
    const logout = await explained(browser.frontend.createBrowserLogoutFlow({ returnTo }));
    expect(new URL(logout.logout_url).searchParams.get('return_to')).toBe(returnTo);
    const csrfBefore = (await cookieNamed(browser, 'csrf_token_'))?.value;
    const html = await browser.fetch(logout.logout_url, { redirect: 'manual', headers: HTML });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe(returnTo);
    expect(await cookieNamed(browser, 'ory_kratos_session')).toBeUndefined();
    expect((await cookieNamed(browser, 'csrf_token_'))?.value).not.toBe(csrfBefore);
    expect((await failure(browser.frontend.toSession())).status).toBe(401);
  });

  it('API: DELETE with the session token 204; the same token again 403', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const native = newNativeClient(portaal.publicUrl);
    const flow = await native.createNativeLoginFlow({});
    const { session_token: token } = await native.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password },
    });
    const logout = () =>
      fetch(`${portaal.publicUrl}/self-service/logout/api`, {
        method: 'DELETE',
        headers: JSON_HEADERS,
        body: JSON.stringify({ session_token: token }),
      });
    expect((await logout()).status).toBe(204);
    const again = await logout();
    expect(again.status).toBe(403);
    expect((await again.json()).error.reason).toBe(
      'The provided Ory Session Token could not be found, is invalid, or otherwise malformed.',
    );
  });
});

describe('features this product switched off', () => {
  it('answer as Kratos does with them off; /.well-known/change-password leads to settings', async () => {
    const base = portaal.publicUrl;
    expect((await fetch(`${base}/self-service/fed-cm/parameters`)).status).toBe(404);
    const exchange = await fetch(`${base}/sessions/token-exchange?init_code=x&return_to_code=y`);
    expect(exchange.status).toBe(404);
    expect((await exchange.json()).error.reason).toBe('no session token exchange code found');
    const change = await fetch(`${base}/.well-known/change-password`, { redirect: 'manual' });
    expect(change.status).toBe(303);
    expect(change.headers.get('location')).toBe(`${base}/self-service/settings/browser`);
  });
});
