import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import {
  JSON_HEADERS,
  HTML,
  csrfTokenOf,
  explained,
  failure,
  identityApi,
  messageIds,
  newBrowser,
  newNativeClient,
  nodeNamed,
  type Browser,
} from '../support/ory.js';
import { STRONG_PASSWORD, createPasswordIdentity, uniqueEmail } from '../support/identities.js';
import { signedInPerson } from '../support/flows.js';

/**
 * Rows of the comparison with Kratos v26 (docs/kratos-compatibility.md#comparison-with-kratos-v26) for login and
 * registration in each mode: browser with redirects (HTML), browser JSON (SPA) and API, at creation, at submit and at
 * errors. Each test names the Kratos behaviour it pins.
 */
let portaal: Portaal;
let shortFlows: Portaal;
beforeAll(async () => {
  portaal = await startPortaal({ env: { REGISTRATION_ENABLED: 'true' } });
  shortFlows = await startPortaal({ env: { FLOW_LIFESPAN: '1s' } });
});
afterAll(async () => {
  try {
    await portaal?.stop();
  } finally {
    await shortFlows?.stop();
  }
});

/** A raw request through the browser's cookie jar that does not follow redirects. */
const raw = (browser: Browser, url: string, init: RequestInit = {}) =>
  browser.fetch(url, { redirect: 'manual', ...init });

describe('login: creating a flow', () => {
  it('with a session: SPA 400 session_already_available, HTML 303 to return_to (ErrAlreadyLoggedIn)', async () => {
    const { browser } = await signedInPerson(portaal);
    const spa = await failure(browser.frontend.createBrowserLoginFlow({}));
    expect(spa.status).toBe(400);
    expect(spa.body.error.id).toBe('session_already_available');
    const returnTo = `${portaal.publicUrl}/settings`;
    const html = await raw(browser, `${portaal.publicUrl}/self-service/login/browser?return_to=${returnTo}`, {
      headers: HTML,
    });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe(returnTo);
  });

  it('aal2 without a session: 401 session_aal1_required; an unknown aal: 400', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const noSession = await failure(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
    expect(noSession.status).toBe(401);
    expect(noSession.body.error.id).toBe('session_aal1_required');
    const unknown = await failure(browser.frontend.createBrowserLoginFlow({ aal: 'aal3' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.reason).toMatch(/^Unable to parse AuthenticationMethod Assurance Level \(AAL\)/);
  });

  it('refresh=true with a session: the address as a hidden identifier and 1010003', async () => {
    const { user, browser } = await signedInPerson(portaal);
    const flow = await explained(browser.frontend.createBrowserLoginFlow({ refresh: true }));
    expect(flow.refresh).toBe(true);
    expect(messageIds(flow)).toEqual([1010003]);
    expect(nodeNamed(flow, 'identifier').attributes).toMatchObject({ type: 'hidden', value: user.email });
  });

  it('HTML mode: `Accept: */*` counts as a browser and gets a 303 to the login screen with the flow id', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const answer = await raw(browser, `${portaal.publicUrl}/self-service/login/browser`, {
      headers: { accept: '*/*' },
    });
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location')!);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('flow')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an API flow has an empty csrf_token node and no cookies', async () => {
    const answer = await fetch(`${portaal.publicUrl}/self-service/login/api`, {
      headers: { accept: 'application/json' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('set-cookie')).toBeNull();
    const flow = await answer.json();
    expect(flow.type).toBe('api');
    expect(csrfTokenOf(flow)).toBe('');
  });
});

describe('login: submitting', () => {
  it('with a session and no refresh: SPA 400 with the flow and 4000001; HTML 303 to the default return', async () => {
    const { user, browser } = await signedInPerson(portaal);
    const fresh = newBrowser(portaal.publicUrl);
    const flow = await explained(fresh.frontend.createBrowserLoginFlow({}));
    // The signed-in browser takes over the flow's CSRF cookie, as a second tab would have it.
    const csrf = (await fresh.jar.getCookies(portaal.publicUrl)).find((c) => c.key.startsWith('csrf_token_'))!;
    await browser.jar.setCookie(csrf.toString(), portaal.publicUrl);
    const body = { method: 'password', identifier: user.email, password: user.password, csrf_token: csrfTokenOf(flow) };
    const spa = await failure(browser.frontend.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: body as any }));
    expect(spa.status).toBe(400);
    expect(spa.body.id).toBe(flow.id);
    expect(spa.body.ui.messages).toEqual([
      expect.objectContaining({
        id: 4000001,
        text: 'A valid session was detected and thus login is not possible. Did you forget to set `?refresh=true`?',
      }),
    ]);
    const html = await raw(browser, `${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe(`${portaal.publicUrl}/permissies`);
  });

  it('a JSON body without an Accept header is answered in JSON (Kratos IsJSONRequest)', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
    const answer = await raw(browser, `${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        method: 'password',
        identifier: uniqueEmail('onbekend'),
        password: 'Niet-Het-Goede-Wachtwoord-1',
        csrf_token: csrfTokenOf(flow),
      }),
    });
    expect(answer.status).toBe(400);
    expect(messageIds(await answer.json())).toEqual([4000006]);
  });

  it('a failed HTML submit goes back to the login screen with the same flow (303)', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
    const answer = await raw(browser, `${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        method: 'password',
        identifier: uniqueEmail('onbekend'),
        password: 'Niet-Het-Goede-Wachtwoord-1',
        csrf_token: csrfTokenOf(flow),
      }).toString(),
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${portaal.publicUrl}/login?flow=${flow.id}`);
    expect(messageIds(await browser.frontend.getLoginFlow({ id: flow.id }))).toEqual([4000006]);
  });

  it('without a method or identifier: 4010002 (Kratos NewNoLoginStrategyResponsible)', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
    const none = await failure(
      browser.frontend.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: { csrf_token: csrfTokenOf(flow) } as any,
      }),
    );
    expect(none.status).toBe(400);
    expect(messageIds(none.body)).toEqual([4010002]);
  });

  it('API mode: a cookie or an Origin header is refused with 400 (Kratos API flow enforcement)', async () => {
    const native = newNativeClient(portaal.publicUrl);
    const flow = await native.createNativeLoginFlow({});
    const submit = (headers: Record<string, string>) =>
      fetch(`${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, ...headers },
        body: JSON.stringify({ method: 'password', identifier: 'iemand@voorbeeldstad.nl', password: 'x' }),
      });
    const withCookie = await submit({ cookie: 'ory_kratos_session=abc' });
    expect(withCookie.status).toBe(400);
    expect((await withCookie.json()).error.reason).toMatch(/included the "Cookie" key/);
    const withOrigin = await submit({ origin: portaal.publicUrl });
    expect(withOrigin.status).toBe(400);
    expect((await withOrigin.json()).error.reason).toMatch(/included the "Origin" key/);
    // Cloudflare's own cookies do not count.
    const cloudflare = await submit({ cookie: '__cf_bm=x' });
    expect(cloudflare.status).toBe(400);
    expect(messageIds(await cloudflare.json())).toEqual([4000006]);
  });
});

describe('login and registration: fetching an expired flow', () => {
  it('browser: 410 self_service_flow_expired with the init URL and return_to; API: the init API URL', async () => {
    const browser = newBrowser(shortFlows.publicUrl);
    const returnTo = `${shortFlows.publicUrl}/settings`;
    const flow = await browser.frontend.createBrowserLoginFlow({ returnTo });
    const native = newNativeClient(shortFlows.publicUrl);
    const apiFlow = await native.createNativeLoginFlow({});
    await new Promise((r) => setTimeout(r, 1_300));
    const expired = await failure(browser.frontend.getLoginFlow({ id: flow.id }));
    expect(expired.status).toBe(410);
    expect(expired.body.error.id).toBe('self_service_flow_expired');
    expect(expired.body.error.details).toEqual({
      redirect_to: `${shortFlows.publicUrl}/self-service/login/browser`,
      return_to: returnTo,
    });
    const expiredApi = await failure(native.getLoginFlow({ id: apiFlow.id }));
    expect(expiredApi.status).toBe(410);
    expect(expiredApi.body.error.id).toBe('self_service_flow_expired');
    expect(expiredApi.body.error.details).toEqual({ api: `${shortFlows.publicUrl}/self-service/login/api` });
  });
});

const traits = (email: string) => ({ email, name: { first: 'Nieuwe', last: 'Gebruiker' } });

describe('registration', () => {
  it('created with a session: SPA 400 session_already_available, HTML 303 to the return URL, API 400', async () => {
    const { browser } = await signedInPerson(portaal);
    const spa = await failure(browser.frontend.createBrowserRegistrationFlow({}));
    expect(spa.status).toBe(400);
    expect(spa.body.error.id).toBe('session_already_available');
    const html = await raw(browser, `${portaal.publicUrl}/self-service/registration/browser`, { headers: HTML });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe(`${portaal.publicUrl}/permissies`);
    const native = newNativeClient(portaal.publicUrl);
    const login = await native.createNativeLoginFlow({});
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const { session_token: token } = await native.updateLoginFlow({
      flow: login.id,
      updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password },
    });
    const api = await failure(native.createNativeRegistrationFlow({}, { headers: { 'X-Session-Token': token! } }));
    expect(api.status).toBe(400);
    expect(api.body.error.id).toBe('session_already_available');
  });

  it('submitted with a session: HTML 302 to the default return (Kratos RedirectOnAuthenticated), SPA 400', async () => {
    const fresh = newBrowser(portaal.publicUrl);
    const flow = await explained(fresh.frontend.createBrowserRegistrationFlow({}));
    const { browser } = await signedInPerson(portaal);
    const body = {
      method: 'password',
      'traits.email': uniqueEmail('nieuw'),
      'traits.name.first': 'Nieuwe',
      password: STRONG_PASSWORD,
      csrf_token: csrfTokenOf(flow),
    };
    const html = await raw(browser, `${portaal.publicUrl}/self-service/registration?flow=${flow.id}`, {
      method: 'POST',
      headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe(`${portaal.publicUrl}/permissies`);
    const spa = await failure(
      browser.frontend.updateRegistrationFlow({
        flow: flow.id,
        updateRegistrationFlowBody: {
          method: 'password',
          traits: traits(uniqueEmail('nieuw')),
          password: STRONG_PASSWORD,
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(spa.status).toBe(400);
    expect(spa.body.error.id).toBe('session_already_available');
  });

  it('two steps (profile first): 400 with the password step, `screen=previous` back, then the password', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserRegistrationFlow({}));
    expect(nodeNamed(flow, 'password')).toBeUndefined();
    const email = uniqueEmail('stap');
    const step = (body: Record<string, unknown>, from: { ui: { nodes: any[] } }) =>
      failure(
        browser.frontend.updateRegistrationFlow({
          flow: flow.id,
          updateRegistrationFlowBody: { ...body, csrf_token: csrfTokenOf(from) } as any,
        }),
      );
    const second = await step({ method: 'profile', traits: traits(email) }, flow);
    expect(second.status).toBe(400);
    expect(nodeNamed(second.body, 'traits.email').attributes).toMatchObject({ type: 'hidden', value: email });
    expect(nodeNamed(second.body, 'password').attributes.autocomplete).toBe('new-password');
    expect(messageIds(second.body)).toEqual([1040009]);
    const back = await step({ method: 'profile', screen: 'previous' }, second.body);
    expect(back.status).toBe(400);
    expect(nodeNamed(back.body, 'password')).toBeUndefined();
    expect(nodeNamed(back.body, 'traits.email').attributes).toMatchObject({ type: 'email', value: email });
    const again = await step({ method: 'profile', traits: traits(email) }, back.body);
    const done = await explained(
      browser.frontend.updateRegistrationFlow({
        flow: flow.id,
        updateRegistrationFlowBody: {
          method: 'password',
          traits: traits(email),
          password: STRONG_PASSWORD,
          csrf_token: csrfTokenOf(again.body),
        },
      }),
    );
    expect(done.identity.traits.email).toBe(email);
  });

  it('a finished registration: SPA 200 with redirect_browser_to, API continue_with null, HTML 303', async () => {
    const spaBrowser = newBrowser(portaal.publicUrl);
    const spaFlow = await explained(spaBrowser.frontend.createBrowserRegistrationFlow({}));
    const spa = await explained(
      spaBrowser.frontend.updateRegistrationFlow({
        flow: spaFlow.id,
        updateRegistrationFlowBody: {
          method: 'password',
          traits: traits(uniqueEmail('nieuw')),
          password: STRONG_PASSWORD,
          csrf_token: csrfTokenOf(spaFlow),
        },
      }),
    );
    expect(spa.session).toBeUndefined();
    expect(spa.continue_with).toEqual([
      { action: 'redirect_browser_to', redirect_browser_to: `${portaal.publicUrl}/permissies` },
    ]);
    // The SDK reads null as undefined: the raw answer shows what Kratos sends.
    const apiFlow = await newNativeClient(portaal.publicUrl).createNativeRegistrationFlow({});
    const api = await fetch(`${portaal.publicUrl}/self-service/registration?flow=${apiFlow.id}`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ method: 'password', traits: traits(uniqueEmail('nieuw')), password: STRONG_PASSWORD }),
    });
    expect(api.status).toBe(200);
    const apiBody = await api.json();
    expect(apiBody.continue_with).toBeNull();
    expect(Object.keys(apiBody).sort()).toEqual(['continue_with', 'identity']);
    const htmlBrowser = newBrowser(portaal.publicUrl);
    const htmlFlow = await explained(htmlBrowser.frontend.createBrowserRegistrationFlow({}));
    const html = await raw(htmlBrowser, `${portaal.publicUrl}/self-service/registration?flow=${htmlFlow.id}`, {
      method: 'POST',
      headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        method: 'password',
        'traits.email': uniqueEmail('nieuw'),
        password: STRONG_PASSWORD,
        csrf_token: csrfTokenOf(htmlFlow),
      }).toString(),
    });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe(`${portaal.publicUrl}/permissies`);
  });
});
