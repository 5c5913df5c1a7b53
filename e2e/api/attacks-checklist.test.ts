import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, identityApi, newBrowser, newNativeClient, nodeNamed } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { signedInPerson } from '../support/flows.js';

// Checklist statements of docs/security.md that hold by construction, each shown over HTTP: password fields that
// password managers fill (item 6), no default accounts (item 8), no session token in a URL (item 22), no CORS
// (item 36) and log lines that input cannot forge (item 44).

let portaal: Portaal;
beforeAll(async () => {
  // Debug logging writes a line per request, with the URL: the most input that reaches the log.
  portaal = await startPortaal({ env: { LOG_LEVEL: 'debug' } });
});
afterAll(async () => {
  await portaal?.stop();
});

describe('the checklist over HTTP', () => {
  it('has no account on a fresh installation (checklist 8)', async () => {
    const answer = await fetch(`${portaal.adminUrl}/admin/identities`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual([]);
  });

  it('marks password fields for managers: current-password to sign in, new-password to set (checklist 6)', async () => {
    const anonymous = newBrowser(portaal.publicUrl);
    const login = await explained(anonymous.frontend.createBrowserLoginFlow({}));
    expect(nodeNamed(login, 'password').attributes).toMatchObject({
      type: 'password',
      autocomplete: 'current-password',
    });
    const { browser } = await signedInPerson(portaal);
    const settings = await explained(browser.frontend.createBrowserSettingsFlow({}));
    expect(nodeNamed(settings, 'password').attributes).toMatchObject({
      type: 'password',
      autocomplete: 'new-password',
    });
  });

  it('never puts a session token in a URL: not in a redirect, a flow URL or a link (checklist 22)', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const urls: string[] = [];
    // An HTML sign-in, as a browser without JavaScript makes it: every Location on the way.
    const created = await browser.fetch(`${portaal.publicUrl}/self-service/login/browser`, { redirect: 'manual' });
    urls.push(created.headers.get('location')!);
    const flowId = new URL(urls[0]!).searchParams.get('flow')!;
    const flow = await explained(browser.frontend.getLoginFlow({ id: flowId }));
    urls.push(flow.request_url, flow.ui.action);
    const form = new URLSearchParams({
      method: 'password',
      identifier: user.email,
      password: user.password,
      csrf_token: csrfTokenOf(flow),
    });
    const done = await browser.fetch(`${portaal.publicUrl}/self-service/login?flow=${flowId}`, {
      method: 'POST',
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(done.status).toBe(303);
    urls.push(done.headers.get('location')!);
    const token = (await browser.jar.getCookies(portaal.publicUrl)).find((c) => c.key === 'ory_kratos_session')!.value;
    const settings = await explained(browser.frontend.createBrowserSettingsFlow({}));
    urls.push(settings.request_url, settings.ui.action);
    const logout = await explained(browser.frontend.createBrowserLogoutFlow({}));
    urls.push(logout.logout_url);
    // A native client gets its token in the body only.
    const native = newNativeClient(portaal.publicUrl);
    const apiFlow = await native.createNativeLoginFlow({});
    const apiLogin = await explained(
      native.updateLoginFlow({
        flow: apiFlow.id,
        updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password },
      }),
    );
    urls.push(apiFlow.request_url, apiFlow.ui.action);
    for (const url of urls) {
      expect(url).not.toContain(token);
      expect(url).not.toContain(apiLogin.session_token!);
      expect(url).not.toContain('ory_st_');
    }
  });

  it('sends no CORS header to another origin, on a simple request or a preflight (checklist 36)', async () => {
    const origin = { origin: 'https://evil.example' };
    const answers = await Promise.all([
      fetch(`${portaal.publicUrl}/sessions/whoami`, { headers: origin }),
      fetch(`${portaal.publicUrl}/self-service/login/browser`, { headers: { ...origin, accept: 'application/json' } }),
      fetch(`${portaal.publicUrl}/api/config`, { headers: origin }),
      fetch(`${portaal.publicUrl}/api/users`, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'POST' },
      }),
      fetch(`${portaal.publicUrl}/sessions/whoami`, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x' },
      }),
    ]);
    for (const answer of answers) {
      await answer.arrayBuffer();
      const cors: string[] = [];
      answer.headers.forEach((_value, name) => {
        if (name.startsWith('access-control-')) cors.push(name);
      });
      expect(cors, answer.url).toEqual([]);
    }
  });

  it('writes one JSON object a line, whatever line breaks the input carries (checklist 44)', async () => {
    const forged = '{"level":50,"msg":"vervalst"}';
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
    await browser.fetch(`${portaal.publicUrl}/self-service/login?flow=${flow.id}&x=%0a${encodeURIComponent(forged)}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        method: 'password',
        identifier: `iemand@voorbeeldstad.nl\n${forged}\r\n${forged}`,
        password: `x\n${forged}`,
        csrf_token: csrfTokenOf(flow),
      }),
    });
    await fetch(`${portaal.publicUrl}/api/users/password-recovery?email=${encodeURIComponent(`a@b.nl\n${forged}`)}`);
    // The log lines (the start banner aside, which is text for a person) are JSON, one object each, and no input
    // made a line of its own.
    const lines = portaal
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect((JSON.parse(line) as { msg?: string }).msg).not.toBe('vervalst');
    const others = portaal
      .output()
      .split('\n')
      .filter((line) => !line.startsWith('{'));
    for (const line of others) expect(line).not.toContain('vervalst');
  });
});
