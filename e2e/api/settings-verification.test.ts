import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, failure, identityApi, messageIds, newBrowser, nodeNamed } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { enrolLookupSecrets, enrolTotp, loginWithPassword } from '../support/flows.js';

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

async function signedIn() {
  const user = await createPasswordIdentity(identityApi(portaal.adminUrl), {
    email: `anna.${Date.now()}@voorbeeldstad.nl`,
    first: 'Anna',
    last: 'Jansen',
  });
  const browser = newBrowser(portaal.publicUrl);
  await loginWithPassword(browser, user.email, user.password);
  return { user, browser };
}

describe('settings', () => {
  it('changes the name in the profile', async () => {
    const { user, browser } = await signedIn();
    const flow = await browser.frontend.createBrowserSettingsFlow({});
    expect(nodeNamed(flow, 'traits.name.first').attributes.value).toBe('Anna');
    const saved = await explained(
      browser.frontend.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: {
          method: 'profile',
          traits: { email: user.email, name: { first: 'Annemarie', last: 'de Vries' } },
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(saved.state).toBe('success');
    expect(saved.ui.messages?.map((m) => m.id)).toEqual([1050001]);
    // As Kratos >= 1.3 (settings/hook.go): a browser client is told where to go next, here the settings screen.
    expect(saved.continue_with).toEqual([
      { action: 'redirect_browser_to', redirect_browser_to: `${portaal.publicUrl}/settings?flow=${flow.id}` },
    ]);
    expect((await browser.frontend.toSession()).identity?.traits.name).toEqual({
      first: 'Annemarie',
      last: 'de Vries',
    });
  });

  it('refuses a name with a direction override in the profile (4000004), leaving the name as it was', async () => {
    const { user, browser } = await signedIn();
    const flow = await browser.frontend.createBrowserSettingsFlow({});
    const refused = await failure(
      browser.frontend.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: {
          method: 'profile',
          traits: { email: user.email, name: { first: '\u202eevil\u202c', last: 'Jansen' } },
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(refused.status).toBe(400);
    expect(nodeNamed(refused.body, 'traits.name.first').messages.map((m: { id: number }) => m.id)).toEqual([4000004]);
    expect((await browser.frontend.toSession()).identity?.traits.name).toEqual({ first: 'Anna', last: 'Jansen' });
  });

  it.each([
    ['too short', 'kort1', 4000032],
    ['similar to the e-mail', 'EMAIL', 4000031],
    ['a common password', 'wachtwoord123', 4000034],
  ])('refuses a password that is %s', async (_case, password, id) => {
    const { user, browser } = await signedIn();
    const flow = await browser.frontend.createBrowserSettingsFlow({});
    const chosen = password === 'EMAIL' ? `${user.email.split('@')[0]!}2024` : password;
    const { status, body } = await failure(
      browser.frontend.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: { method: 'password', password: chosen, csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(status).toBe(400);
    expect(nodeNamed(body, 'password').messages.map((m: { id: number }) => m.id)).toEqual([id]);
    expect(nodeNamed(body, 'password').messages[0].type).toBe('error');
    // The old password still works.
    expect((await loginWithPassword(newBrowser(portaal.publicUrl), user.email, user.password)).session).toBeDefined();
  });

  it('refuses an e-mail that belongs to another account with 4000007', async () => {
    const other = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const { browser } = await signedIn();
    const flow = await browser.frontend.createBrowserSettingsFlow({});
    const { status, body } = await failure(
      browser.frontend.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: {
          method: 'profile',
          traits: { email: other.email, name: { first: 'A', last: 'B' } },
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(status).toBe(400);
    expect(messageIds(body)).toEqual([4000007]);
  });

  it('needs a session: 401 without one', async () => {
    const { status, body } = await failure(newBrowser(portaal.publicUrl).frontend.createBrowserSettingsFlow({}));
    expect(status).toBe(401);
    expect(body.error.id).toBe('session_inactive');
  });
});

describe('notices of changes to the sign-in details', () => {
  const subject = (text: string) => (mail: { subject: string }) => mail.subject === text;

  async function save(browser: ReturnType<typeof newBrowser>, body: Record<string, unknown>) {
    const flow = await browser.frontend.createBrowserSettingsFlow({});
    return explained(
      browser.frontend.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: { ...body, csrf_token: csrfTokenOf(flow) } as never,
      }),
    );
  }

  it('mails a password change, and a change of address to the old address, but not a change of name', async () => {
    const { user, browser } = await signedIn();
    await save(browser, {
      method: 'profile',
      traits: { email: user.email, name: { first: 'Annemarie', last: 'Jansen' } },
    });
    await save(browser, { method: 'password', password: 'Nieuwe-Zomer-Regen-88' });
    const notice = await portaal.mail.waitFor(user.email, { filter: subject('Je wachtwoord is gewijzigd') });
    expect(notice.text).toMatch(/^Hallo Annemarie,/);
    expect(notice.text).toMatch(
      /Het wachtwoord van je account is gewijzigd\. Dit gebeurde op \d{1,2} [a-z]+ \d{4} om \d{2}:\d{2}/,
    );
    // The courier sends in order: a notice of the name change would have come before the password's.
    expect(portaal.mail.to(user.email).map((mail) => mail.subject)).toEqual(['Je wachtwoord is gewijzigd']);

    const newAddress = `nieuw.${user.email}`;
    await save(browser, {
      method: 'profile',
      traits: { email: newAddress, name: { first: 'Annemarie', last: 'Jansen' } },
    });
    const moved = await portaal.mail.waitFor(user.email, {
      filter: subject('Het e-mailadres van je account is gewijzigd'),
    });
    expect(moved.text).toContain(`gewijzigd in ${newAddress}.`);
    expect(portaal.mail.to(newAddress).filter(subject('Het e-mailadres van je account is gewijzigd'))).toEqual([]);
  });

  it('mails linking and unlinking the authenticator app and switching off the backup codes', async () => {
    const { user, browser } = await signedIn();
    await enrolTotp(browser);
    await portaal.mail.waitFor(user.email, { filter: subject('Er is een authenticator-app aan je account gekoppeld') });
    await enrolLookupSecrets(browser);
    await save(browser, { method: 'lookup_secret', lookup_secret_disable: true });
    await portaal.mail.waitFor(user.email, { filter: subject('Je back-upcodes zijn uitgeschakeld') });
    await save(browser, { method: 'totp', totp_unlink: true });
    await portaal.mail.waitFor(user.email, { filter: subject('De authenticator-app is losgekoppeld van je account') });
    // Making backup codes is no loss of protection and is not mailed.
    expect(portaal.mail.to(user.email).map((mail) => mail.subject)).toEqual([
      'Er is een authenticator-app aan je account gekoppeld',
      'Je back-upcodes zijn uitgeschakeld',
      'De authenticator-app is losgekoppeld van je account',
    ]);
  });
});

describe('verification', () => {
  it('starts recovery and verification flows with their one method active, as Kratos does', async () => {
    const browser = newBrowser(portaal.publicUrl);
    expect((await browser.frontend.createBrowserRecoveryFlow({})).active).toBe('code');
    expect((await browser.frontend.createBrowserVerificationFlow({})).active).toBe('code');
  });

  it('verifies the address with the code from the mail', async () => {
    const identities = identityApi(portaal.adminUrl);
    const user = await createPasswordIdentity(identities);
    expect((await identities.getIdentity({ id: user.id })).data.verifiable_addresses?.[0]?.verified).toBe(false);
    const browser = newBrowser(portaal.publicUrl);
    const flow = await browser.frontend.createBrowserVerificationFlow({});
    const since = new Date();
    const sent = await explained(
      browser.frontend.updateVerificationFlow({
        flow: flow.id,
        updateVerificationFlowBody: { method: 'code', email: user.email, csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(sent.state).toBe('sent_email');
    expect(sent.ui.messages?.map((m) => m.id)).toEqual([1080003]);
    const mail = await portaal.mail.waitFor(user.email, { since });
    expect(mail.subject).toBe('Bevestig je e-mailadres voor het Datavoorzieningen Portaal');
    const code = /^(\d{6})$/m.exec(mail.text)![1]!;

    const wrong = await explained(
      browser.frontend.updateVerificationFlow({
        flow: flow.id,
        updateVerificationFlowBody: {
          method: 'code',
          code: code === '000000' ? '111111' : '000000',
          csrf_token: csrfTokenOf(sent),
        },
      }),
    );
    expect(messageIds(wrong)).toEqual([4070006]);
    const done = await explained(
      browser.frontend.updateVerificationFlow({
        flow: flow.id,
        updateVerificationFlowBody: { method: 'code', code, csrf_token: csrfTokenOf(sent) },
      }),
    );
    expect(done.state).toBe('passed_challenge');
    expect(done.ui.messages?.map((m) => m.id)).toEqual([1080002]);
    const address = (await identities.getIdentity({ id: user.id })).data.verifiable_addresses?.[0];
    expect(address?.verified).toBe(true);
    expect(address?.status).toBe('completed');
  });
});
