import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, failure, identityApi, newBrowser, newNativeClient, nodeNamed } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { attemptLogin, loginWithPassword } from '../support/flows.js';

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

describe('password login', () => {
  it('signs in in browser-JSON mode, sets the session cookie and answers whoami', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const result = await loginWithPassword(browser, user.email, user.password);
    expect(result.session?.identity?.traits.email).toBe(user.email);
    expect(result.session?.authenticator_assurance_level).toBe('aal1');
    const cookies = await browser.jar.getCookies(portaal.publicUrl);
    const session = cookies.find((c) => c.key === 'ory_kratos_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('lax');
    expect(session?.secure).toBe(false);
    const whoami = await browser.frontend.toSession();
    expect(whoami.identity?.id).toBe(user.id);
  });

  it('signs in in HTML form mode with 303 redirects to the default return page', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const init = await browser.fetch(`${portaal.publicUrl}/self-service/login/browser`, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    expect(init.status).toBe(303);
    const location = new URL(init.headers.get('location')!);
    expect(location.pathname).toBe('/login');
    const flowId = location.searchParams.get('flow')!;
    const flow = await browser.frontend.getLoginFlow({ id: flowId });
    const form = new URLSearchParams({
      csrf_token: csrfTokenOf(flow),
      method: 'password',
      identifier: user.email,
      password: user.password,
    });
    const submit = await browser.fetch(flow.ui.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: form,
    });
    expect(submit.status).toBe(303);
    expect(new URL(submit.headers.get('location')!).pathname).toBe('/permissies');
    expect((await browser.frontend.toSession()).identity?.id).toBe(user.id);
  });

  it('refuses a wrong password with 4000006 and clears the password node', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const flow = await browser.frontend.createBrowserLoginFlow({});
    const { status, body } = await failure(
      browser.frontend.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: {
          method: 'password',
          identifier: user.email,
          password: 'Verkeerd-Wachtwoord-1',
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(status).toBe(400);
    expect(body.ui.messages).toEqual([
      expect.objectContaining({
        id: 4000006,
        type: 'error',
        text:
          'The provided credentials are invalid, check for spelling mistakes in your password or username, ' +
          'email address, or phone number.',
      }),
    ]);
    expect(nodeNamed(body, 'password').attributes.value).toBeUndefined();
    expect(nodeNamed(body, 'identifier').attributes.value).toBe(user.email);
  });

  // Checklist item: docs/security.md#3-passwords-are-checked-exactly-as-typed
  it(
    'checks a long password exactly as given: no cut at 72 bytes, no change of case, ' +
      'spaces and emoji kept (checklist 3)',
    async () => {
      const password = `Lange zin met spaties 🌷 ${'Aa1-'.repeat(15)}`;
      expect(new TextEncoder().encode(password).length).toBeGreaterThan(80);
      const user = await createPasswordIdentity(identityApi(portaal.adminUrl), { password });
      const cut = new TextDecoder().decode(new TextEncoder().encode(password).slice(0, 72));
      for (const wrong of [cut, password.toLowerCase(), password.toUpperCase(), password.replace(/ /g, '')]) {
        const { body } = await failure(attemptLogin(newBrowser(portaal.publicUrl), user.email, wrong));
        expect(body.ui.messages.map((m: { id: number }) => m.id)).toEqual([4000006]);
      }
      expect((await loginWithPassword(newBrowser(portaal.publicUrl), user.email, password)).session?.identity?.id).toBe(
        user.id,
      );
    },
  );

  it('answers an unknown account exactly like a wrong password', async () => {
    const { status, body } = await failure(
      attemptLogin(newBrowser(portaal.publicUrl), 'niemand@voorbeeldstad.nl', 'Verkeerd-Wachtwoord-1'),
    );
    expect(status).toBe(400);
    expect(body.ui.messages.map((m: { id: number }) => m.id)).toEqual([4000006]);
  });

  it('returns a session token in API mode and accepts it as X-Session-Token', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const native = newNativeClient(portaal.publicUrl);
    const flow = await native.createNativeLoginFlow({});
    const result = await native.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password, csrf_token: '' },
    });
    expect(result.session_token).toMatch(/^ory_st_/);
    const session = await native.toSession({ xSessionToken: result.session_token });
    expect(session.identity?.id).toBe(user.id);
  });

  it('refuses whoami without a session with 401 and no error id', async () => {
    const { status, body } = await failure(newBrowser(portaal.publicUrl).frontend.toSession());
    expect(status).toBe(401);
    expect(body.error.code).toBe(401);
    expect(body.error.id).toBeUndefined();
  });
});
