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
import { createPasswordIdentity } from '../support/identities.js';
import { loginWithPassword, signedInPerson } from '../support/flows.js';

/**
 * Rows of the comparison with Kratos v26 (docs/kratos-compatibility.md#comparison-with-kratos-v26) for recovery and
 * verification that the other files do not cover: a session at creation and at submit, a finished flow submitted
 * again, the verification link opened in another browser, and expired flows fetched.
 */
let portaal: Portaal;
let shortFlows: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
  shortFlows = await startPortaal({ env: { FLOW_LIFESPAN: '1s' } });
});
afterAll(async () => {
  try {
    await portaal?.stop();
  } finally {
    await shortFlows?.stop();
  }
});

const codeIn = (text: string) => /^(\d{6})$/m.exec(text)?.[1];

/** Forgets the session cookie but keeps the CSRF cookie, as after signing out in another tab. */
async function dropSessionCookie(browser: Browser) {
  const session = (await browser.jar.getCookies(portaal.publicUrl)).find((c) => c.key === 'ory_kratos_session');
  if (session) await browser.jar.store.removeCookie(session.domain!, session.path!, session.key);
}

describe('recovery with a session', () => {
  it('creating: SPA 400 session_already_available, HTML 302 to the default return, API 400', async () => {
    const { user, browser } = await signedInPerson(portaal);
    const spa = await failure(browser.frontend.createBrowserRecoveryFlow({}));
    expect(spa.status).toBe(400);
    expect(spa.body.error).toMatchObject({
      id: 'session_already_available',
      reason: 'A valid session was detected and thus recovery is not possible.',
    });
    const html = await browser.fetch(`${portaal.publicUrl}/self-service/recovery/browser`, {
      redirect: 'manual',
      headers: HTML,
    });
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe(`${portaal.publicUrl}/permissies`);
    const native = newNativeClient(portaal.publicUrl);
    const login = await native.createNativeLoginFlow({});
    const { session_token: token } = await native.updateLoginFlow({
      flow: login.id,
      updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password },
    });
    const api = await failure(native.createNativeRecoveryFlow({ headers: { 'X-Session-Token': token! } }));
    expect(api.status).toBe(400);
    expect(api.body.error.id).toBe('session_already_available');
  });

  it('a code is taken before the session is looked at: a signed-in browser recovers another account', async () => {
    const identities = identityApi(portaal.adminUrl);
    const signedIn = await createPasswordIdentity(identities);
    const recovered = await createPasswordIdentity(identities);
    const browser = newBrowser(portaal.publicUrl);
    await loginWithPassword(browser, signedIn.email, signedIn.password);
    const { data } = await identities.createRecoveryCodeForIdentity({
      createRecoveryCodeForIdentityBody: { identity_id: recovered.id },
    });
    const flowId = new URL(data.recovery_link).searchParams.get('flow')!;
    const flow = await explained(browser.frontend.getRecoveryFlow({ id: flowId }));
    const answer = await failure(
      browser.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: 'code', code: data.recovery_code, csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.error.id).toBe('browser_location_change_required');
    expect(new URL(answer.body.redirect_browser_to).pathname).toBe('/settings');
    expect((await browser.frontend.toSession()).identity?.id).toBe(recovered.id);
    // Asking for a new code by address still needs the browser to be signed out.
    const again = await failure(
      browser.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: 'code', email: recovered.email, csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(again.status).toBe(400);
    expect(again.body.error.id).toBe('session_already_available');
  });
});

describe('a finished recovery flow submitted again', () => {
  it('with its code: 200 and 4060006; with an address: a new flow carrying 4060001 (SPA: 303 to it)', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserRecoveryFlow({}));
    const since = new Date();
    const sent = await explained(
      browser.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: 'code', email: user.email, csrf_token: csrfTokenOf(flow) },
      }),
    );
    const code = codeIn((await portaal.mail.waitFor(user.email, { since })).text)!;
    const body = { method: 'code' as const, code, csrf_token: csrfTokenOf(sent) };
    expect(
      (await failure(browser.frontend.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: body }))).status,
    ).toBe(422);
    await dropSessionCookie(browser);
    // The finished flow moved to the renewed CSRF cookie, so it passes the CSRF check.
    const finished = await explained(browser.frontend.getRecoveryFlow({ id: flow.id }));
    const usedCode = await explained(
      browser.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { ...body, csrf_token: csrfTokenOf(finished) },
      }),
    );
    expect(messageIds(usedCode)).toEqual([4060006]);
    const byAddress = await browser.fetch(`${portaal.publicUrl}/self-service/recovery?flow=${flow.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: JSON_HEADERS,
      body: JSON.stringify({ method: 'code', email: user.email, csrf_token: csrfTokenOf(finished) }),
    });
    expect(byAddress.status).toBe(303);
    const next = new URL(byAddress.headers.get('location')!);
    expect(next.pathname).toBe('/self-service/recovery/flows');
    const replacement = await explained(browser.frontend.getRecoveryFlow({ id: next.searchParams.get('id')! }));
    expect(replacement.id).not.toBe(flow.id);
    expect(messageIds(replacement)).toEqual([4060001]);
  });
});

describe('verification', () => {
  it('the mail link opened in another browser: 303 to the screen, the flow bound to that browser', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const asking = newBrowser(portaal.publicUrl);
    const flow = await explained(asking.frontend.createBrowserVerificationFlow({}));
    const since = new Date();
    await explained(
      asking.frontend.updateVerificationFlow({
        flow: flow.id,
        updateVerificationFlowBody: { method: 'code', email: user.email, csrf_token: csrfTokenOf(flow) },
      }),
    );
    const code = codeIn((await portaal.mail.waitFor(user.email, { since })).text)!;
    const phone = newBrowser(portaal.publicUrl);
    const link = await phone.fetch(`${portaal.publicUrl}/self-service/verification?flow=${flow.id}&code=${code}`, {
      redirect: 'manual',
      headers: HTML,
    });
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe(`${portaal.publicUrl}/verification?flow=${flow.id}`);
    const shown = await explained(phone.frontend.getVerificationFlow({ id: flow.id }));
    expect(nodeNamed(shown, 'code').attributes.value).toBe(code);
    const done = await explained(
      phone.frontend.updateVerificationFlow({
        flow: flow.id,
        updateVerificationFlowBody: { method: 'code', code, csrf_token: csrfTokenOf(shown) },
      }),
    );
    expect(done.state).toBe('passed_challenge');
  });

  it('a finished flow submitted again: 410 self_service_flow_replaced and a new flow carrying 4070002', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserVerificationFlow({}));
    const since = new Date();
    const sent = await explained(
      browser.frontend.updateVerificationFlow({
        flow: flow.id,
        updateVerificationFlowBody: { method: 'code', email: user.email, csrf_token: csrfTokenOf(flow) },
      }),
    );
    const code = codeIn((await portaal.mail.waitFor(user.email, { since })).text)!;
    const body = { method: 'code' as const, code, csrf_token: csrfTokenOf(sent) };
    await explained(browser.frontend.updateVerificationFlow({ flow: flow.id, updateVerificationFlowBody: body }));
    const again = await failure(
      browser.frontend.updateVerificationFlow({ flow: flow.id, updateVerificationFlowBody: body }),
    );
    expect(again.status).toBe(410);
    expect(again.body.error).toMatchObject({
      id: 'self_service_flow_replaced',
      reason: 'An error occured, please use the new flow.',
    });
    const replacement = await explained(browser.frontend.getVerificationFlow({ id: again.body.use_flow_id }));
    expect(messageIds(replacement)).toEqual([4070002]);
  });
});

describe('fetching an expired recovery or verification flow', () => {
  it('browser: 410, no error id, init URL; API recovery: self_service_flow_expired and init API URL', async () => {
    const browser = newBrowser(shortFlows.publicUrl);
    const native = newNativeClient(shortFlows.publicUrl);
    const recovery = await browser.frontend.createBrowserRecoveryFlow({});
    const verification = await browser.frontend.createBrowserVerificationFlow({});
    const apiRecovery = await native.createNativeRecoveryFlow();
    await new Promise((r) => setTimeout(r, 1_300));
    // Each call is made only when its refusal is awaited: a second call made at once would reject unhandled.
    for (const [kind, call] of [
      ['recovery', () => browser.frontend.getRecoveryFlow({ id: recovery.id })],
      ['verification', () => browser.frontend.getVerificationFlow({ id: verification.id })],
    ] as const) {
      const expired = await failure(call());
      expect(expired.status, kind).toBe(410);
      expect(expired.body.error.id, kind).toBeUndefined();
      expect(expired.body.error.details, kind).toEqual({
        redirect_to: `${shortFlows.publicUrl}/self-service/${kind}/browser`,
      });
    }
    const expiredApi = await failure(native.getRecoveryFlow({ id: apiRecovery.id }));
    expect(expiredApi.status).toBe(410);
    expect(expiredApi.body.error.id).toBe('self_service_flow_expired');
    expect(expiredApi.body.error.details).toEqual({ api: `${shortFlows.publicUrl}/self-service/recovery/api` });
  });
});
