import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, failure, identityApi, messageIds, newBrowser, newNativeClient } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { attemptLogin } from '../support/flows.js';

let portaal: Portaal;
let shortFlows: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
  shortFlows = await startPortaal({ env: { FLOW_LIFESPAN: '1s' } });
});
afterAll(async () => {
  await portaal?.stop();
  await shortFlows?.stop();
});

describe('flow errors', () => {
  it('answers a submit to an expired flow with 410 and the id of a new flow', async () => {
    const user = await createPasswordIdentity(identityApi(shortFlows.adminUrl));
    const browser = newBrowser(shortFlows.publicUrl);
    const flow = await browser.frontend.createBrowserLoginFlow({});
    await new Promise((r) => setTimeout(r, 1_300));
    const { status, body } = await failure(
      browser.frontend.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: {
          method: 'password',
          identifier: user.email,
          password: user.password,
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(status).toBe(410);
    expect(body.error.id).toBe('self_service_flow_expired');
    expect(body.use_flow_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.use_flow_id).not.toBe(flow.id);
    const replacement = await browser.frontend.getLoginFlow({ id: body.use_flow_id });
    expect(messageIds(replacement)).toEqual([4010001]);
  });

  it('answers an API-mode submit to an expired flow with 410 too', async () => {
    const native = newNativeClient(shortFlows.publicUrl);
    const flow = await native.createNativeLoginFlow({});
    await new Promise((r) => setTimeout(r, 1_300));
    const { status, body } = await failure(
      native.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: { method: 'password', identifier: 'iemand@voorbeeldstad.nl', password: 'x' },
      }),
    );
    expect(status).toBe(410);
    expect(body.error.id).toBe('self_service_flow_expired');
    expect((await native.getLoginFlow({ id: body.use_flow_id })).type).toBe('api');
  });

  it('sends an expired recovery flow in API mode to a new flow carrying 4060005', async () => {
    const native = newNativeClient(shortFlows.publicUrl);
    const flow = await native.createNativeRecoveryFlow();
    await new Promise((r) => setTimeout(r, 1_300));
    const raw = await fetch(`${shortFlows.publicUrl}/self-service/recovery?flow=${flow.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ method: 'code', email: 'iemand@voorbeeldstad.nl' }),
    });
    expect(raw.status).toBe(303);
    const next = new URL(raw.headers.get('location')!);
    expect(next.pathname).toBe('/self-service/recovery/flows');
    const replacement = await native.getRecoveryFlow({ id: next.searchParams.get('id')! });
    expect(messageIds(replacement)).toEqual([4060005]);
  });

  it('refuses a submit without the CSRF cookie with 403 security_csrf_violation', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const flow = await browser.frontend.createBrowserLoginFlow({});
    const stranger = newBrowser(portaal.publicUrl);
    const { status, body } = await failure(
      stranger.frontend.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: {
          method: 'password',
          identifier: user.email,
          password: user.password,
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(status).toBe(403);
    expect(body.error.id).toBe('security_csrf_violation');
    expect((await failure(stranger.frontend.toSession())).status).toBe(401);
  });

  it('refuses a forged CSRF token with 403', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const flow = await browser.frontend.createBrowserLoginFlow({});
    const { status, body } = await failure(
      browser.frontend.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: {
          method: 'password',
          identifier: user.email,
          password: user.password,
          csrf_token: Buffer.alloc(64, 7).toString('base64'),
        },
      }),
    );
    expect(status).toBe(403);
    expect(body.error.id).toBe('security_csrf_violation');
  });

  it('refuses a return_to outside the allow-list', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const { status, body } = await failure(
      browser.frontend.createBrowserLoginFlow({ returnTo: 'https://evil.example.com/steal' }),
    );
    expect(status).toBe(400);
    expect(body.error.id).toBe('self_service_flow_return_to_forbidden');
    const allowed = await browser.frontend.createBrowserLoginFlow({ returnTo: `${portaal.publicUrl}/settings` });
    expect(allowed.return_to).toBe(`${portaal.publicUrl}/settings`);
  });

  it('refuses an inactive identity with 4010011, even with the right password', async () => {
    const identities = identityApi(portaal.adminUrl);
    const user = await createPasswordIdentity(identities);
    await identities.patchIdentity({ id: user.id, jsonPatch: [{ op: 'replace', path: '/state', value: 'inactive' }] });
    const { status, body } = await failure(attemptLogin(newBrowser(portaal.publicUrl), user.email, user.password));
    expect(status).toBe(400);
    expect(messageIds(body)).toEqual([4010011]);
  });

  it('answers an unknown flow id with 404 and a garbage id with 404, never 500', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const unknown = await failure(browser.frontend.getLoginFlow({ id: '00000000-0000-4000-8000-000000000000' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe(404);
    const garbage = await failure(browser.frontend.getLoginFlow({ id: 'not-a-uuid' }));
    expect(garbage.status).toBe(404);
  });
});
