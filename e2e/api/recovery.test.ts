import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, failure, identityApi, messageIds, newBrowser, type Browser } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { attemptLogin, loginWithPassword } from '../support/flows.js';

let portaal: Portaal;
let shortLived: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
  shortLived = await startPortaal({ env: { CODE_LIFESPAN: '2s' } });
});
afterAll(async () => {
  // Both stop, also when the first reports a fault.
  try {
    await portaal?.stop();
  } finally {
    await shortLived?.stop();
  }
});

const codeIn = (text: string) => /^(\d{6})$/m.exec(text)?.[1];

/** Starts a recovery flow and asks for a code mail; returns the flow after the e-mail step. */
async function requestCode(browser: Browser, email: string) {
  const flow = await explained(browser.frontend.createBrowserRecoveryFlow({}));
  const sent = await explained(
    browser.frontend.updateRecoveryFlow({
      flow: flow.id,
      updateRecoveryFlowBody: { method: 'code', email, csrf_token: csrfTokenOf(flow) },
    }),
  );
  return sent;
}

async function submitCode(browser: Browser, flow: { id: string; ui: { nodes: any[] } }, code: string) {
  return browser.frontend.updateRecoveryFlow({
    flow: flow.id,
    updateRecoveryFlowBody: { method: 'code', code, csrf_token: csrfTokenOf(flow) },
  });
}

describe('recovery', () => {
  it('by code from the mail: privileged session, settings flow with 1060001, then a password change', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const elsewhere = newBrowser(portaal.publicUrl);
    await loginWithPassword(elsewhere, user.email, user.password);
    const browser = newBrowser(portaal.publicUrl);
    const since = new Date();
    const sent = await requestCode(browser, user.email);
    expect(sent.state).toBe('sent_email');
    expect(sent.ui.messages?.map((m) => m.id)).toEqual([1060003]);
    const mail = await portaal.mail.waitFor(user.email, { since });
    expect(mail.subject).toBe('Je herstelcode voor het Datavoorzieningen Portaal');
    expect(mail.text).toContain('De code is 15 minuten geldig.');
    const code = codeIn(mail.text)!;

    const answer = await failure(submitCode(browser, sent, code));
    expect(answer.status).toBe(422);
    expect(answer.body.error.id).toBe('browser_location_change_required');
    const settingsUrl = new URL(answer.body.redirect_browser_to);
    expect(settingsUrl.pathname).toBe('/settings');
    const settings = await browser.frontend.getSettingsFlow({ id: settingsUrl.searchParams.get('flow')! });
    expect(settings.ui.messages?.map((m) => m.id)).toEqual([1060001]);
    const session = await browser.frontend.toSession();
    expect(session.authentication_methods?.map((m) => m.method)).toEqual(['code_recovery']);
    // Kratos' revoke_active_sessions hook: the session signed in elsewhere before the recovery has ended.
    expect((await failure(elsewhere.frontend.toSession())).status).toBe(401);

    const newPassword = 'Nieuwe-Lente-Wandeling-93';
    const changed = await explained(
      browser.frontend.updateSettingsFlow({
        flow: settings.id,
        updateSettingsFlowBody: { method: 'password', password: newPassword, csrf_token: csrfTokenOf(settings) },
      }),
    );
    expect(changed.state).toBe('success');
    const fresh = newBrowser(portaal.publicUrl);
    expect((await loginWithPassword(fresh, user.email, newPassword)).session?.identity?.id).toBe(user.id);
    const old = await failure(attemptLogin(newBrowser(portaal.publicUrl), user.email, user.password));
    expect(messageIds(old.body)).toEqual([4000006]);
  });

  it('by the link from the mail: 303 to the settings screen with a session', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const flow = await browser.frontend.createBrowserRecoveryFlow({});
    const since = new Date();
    const sent = await explained(
      browser.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: 'link', email: user.email, csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(sent.ui.messages?.map((m) => m.id)).toEqual([1060002]);
    const mail = await portaal.mail.waitFor(user.email, { since });
    expect(mail.text).toContain('Deze link is 15 minuten geldig');
    const link = /(http:\/\/\S+token=\S+)/.exec(mail.text)![1]!;
    const logged = portaal.output().length;
    const followed = await browser.fetch(link, { redirect: 'manual' });
    expect(followed.status).toBe(303);
    // One answer only: the provider does not go on as if the link had failed.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(portaal.output().slice(logged)).not.toContain('FST_ERR_REP_ALREADY_SENT');
    const location = new URL(followed.headers.get('location')!);
    expect(location.pathname).toBe('/settings');
    const session = await browser.frontend.toSession();
    expect(session.identity?.id).toBe(user.id);
    expect(session.authentication_methods?.map((m) => m.method)).toEqual(['link_recovery']);
    const settings = await browser.frontend.getSettingsFlow({ id: location.searchParams.get('flow')! });
    const changed = await explained(
      browser.frontend.updateSettingsFlow({
        flow: settings.id,
        updateSettingsFlowBody: {
          method: 'password',
          password: 'Herfst-Bladeren-Regen-58',
          csrf_token: csrfTokenOf(settings),
        },
      }),
    );
    expect(changed.state).toBe('success');

    // The link works once.
    const reused = await newBrowser(portaal.publicUrl).fetch(link, { redirect: 'manual' });
    expect(reused.status).toBe(303);
    expect(new URL(reused.headers.get('location')!).pathname).toBe('/recovery');
  });

  it('by code in an API flow: one answer with the session token and the settings flow to continue with', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const client = newBrowser(portaal.publicUrl);
    const flow = await client.frontend.createNativeRecoveryFlow();
    const since = new Date();
    await explained(
      client.frontend.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: 'code', email: user.email },
      }),
    );
    const code = codeIn((await portaal.mail.waitFor(user.email, { since })).text)!;
    const logged = portaal.output().length;
    const done = await explained(
      client.frontend.updateRecoveryFlow({ flow: flow.id, updateRecoveryFlowBody: { method: 'code', code } }),
    );
    expect(done.continue_with?.map((item) => item.action)).toEqual(['set_ory_session_token', 'show_settings_ui']);
    expect(done.ui.messages ?? []).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(portaal.output().slice(logged)).not.toContain('FST_ERR_REP_ALREADY_SENT');
  });

  // Checklist item: docs/security.md#11-codes-expire-work-once-and-only-in-their-own-flow
  it("binds a code to the flow that asked for it: one flow's code is refused in another (checklist 11)", async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const since = new Date();
    const first = await requestCode(browser, user.email);
    const firstMail = await portaal.mail.waitFor(user.email, { since });
    const firstCode = codeIn(firstMail.text)!;
    const second = await requestCode(newBrowser(portaal.publicUrl), user.email);
    // Told apart by the mail itself: the second can arrive within the millisecond of the first.
    const secondCode = codeIn(
      (await portaal.mail.waitFor(user.email, { since, filter: (mail) => mail !== firstMail })).text,
    )!;
    expect(second.id).not.toBe(first.id);
    const crossed = await explained(submitCode(browser, first, secondCode));
    expect(crossed.ui.messages?.map((m) => m.id)).toEqual([4060006]);
    expect((await failure(submitCode(browser, crossed, firstCode))).status).toBe(422);
  });

  it('kills the code after 5 wrong tries: the right code no longer signs in', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const browser = newBrowser(portaal.publicUrl);
    const since = new Date();
    let flow = await requestCode(browser, user.email);
    const code = codeIn((await portaal.mail.waitFor(user.email, { since })).text)!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      flow = await explained(submitCode(browser, flow, wrong));
      expect(messageIds(flow)).toEqual([4060006]);
    }
    const sixth = await explained(submitCode(browser, flow, code));
    expect(sixth.id).not.toBe(flow.id);
    expect(messageIds(sixth)).toEqual([4000001]);
    expect(sixth.state).toBe('choose_method');
    expect((await failure(browser.frontend.toSession())).status).toBe(401);
  });

  it('kills the code after its lifespan', async () => {
    const user = await createPasswordIdentity(identityApi(shortLived.adminUrl));
    const browser = newBrowser(shortLived.publicUrl);
    const since = new Date();
    const flow = await requestCode(browser, user.email);
    const code = codeIn((await shortLived.mail.waitFor(user.email, { since })).text)!;
    await new Promise((r) => setTimeout(r, 2_500));
    const answer = await explained(submitCode(browser, flow, code));
    expect(messageIds(answer)).toEqual([4060006]);
    expect((await failure(browser.frontend.toSession())).status).toBe(401);
  });

  it('answers an unknown address exactly like a known one and sends no mail', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const known = await requestCode(newBrowser(portaal.publicUrl), user.email);
    const since = new Date();
    const unknown = await requestCode(newBrowser(portaal.publicUrl), 'onbekend@voorbeeldstad.nl');
    const shape = (flow: typeof known) => ({
      state: flow.state,
      messages: flow.ui.messages,
      nodes: flow.ui.nodes.map((n) => n.attributes),
    });
    const withoutValues = (value: ReturnType<typeof shape>) =>
      JSON.parse(JSON.stringify(value).replace(/"value":"[^"]*"/g, '"value":""'));
    expect(withoutValues(shape(unknown))).toEqual(withoutValues(shape(known)));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(portaal.mail.to('onbekend@voorbeeldstad.nl').filter((m) => m.receivedAt >= since)).toHaveLength(0);
  });
});
