import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, failure, identityApi, messageIds, newBrowser } from '../support/ory.js';
import { totpCode } from '../support/identities.js';
import {
  enrolLookupSecrets,
  enrolTotp,
  loginSecondFactor,
  loginWithPassword,
  signedInPerson,
} from '../support/flows.js';

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

/** A user with TOTP and backup codes enrolled, signed out again. */
async function userWithSecondFactor() {
  const { user, browser } = await signedInPerson(portaal);
  // Enrol with the previous step's code so that the sign-in below may use the current step.
  const secret = await enrolTotp(browser, -1);
  const codes = await enrolLookupSecrets(browser);
  return { ...user, secret, codes };
}

describe('second factor', () => {
  it('offers the TOTP enrolment with a QR code image and the secret key', async () => {
    const { browser } = await signedInPerson(portaal);
    const flow = await browser.frontend.createBrowserSettingsFlow({});
    const qr = flow.ui.nodes.find((n: any) => n.attributes.id === 'totp_qr');
    expect(qr?.type).toBe('img');
    expect((qr!.attributes as any).src).toMatch(/^data:image\/png;base64,/);
    const secret = flow.ui.nodes.find((n: any) => n.attributes.id === 'totp_secret_key');
    expect((secret!.attributes as any).text.text).toMatch(/^[A-Z2-7]{16,}$/);
    expect(flow.ui.nodes.some((n: any) => n.attributes.name === 'totp_code')).toBe(true);
  });

  it('needs aal2: whoami at aal1 answers 403 session_aal2_required, a TOTP code completes the sign-in', async () => {
    const user = await userWithSecondFactor();
    const browser = newBrowser(portaal.publicUrl);
    const first = await loginWithPassword(browser, user.email, user.password);
    expect(first.session).toBeUndefined();
    expect(new URL(first.redirectBrowserTo!).pathname + new URL(first.redirectBrowserTo!).search).toBe(
      '/self-service/login/browser?aal=aal2',
    );
    const refused = await failure(browser.frontend.toSession());
    expect(refused.status).toBe(403);
    expect(refused.body.error.id).toBe('session_aal2_required');
    expect(refused.body.redirect_browser_to).toContain('/self-service/login/browser?aal=aal2');

    const second = await loginSecondFactor(browser, user.secret);
    expect(second.session.authenticator_assurance_level).toBe('aal2');
    expect(second.session.authentication_methods?.map((m) => m.method)).toEqual(['password', 'totp']);
    expect((await browser.frontend.toSession()).authenticator_assurance_level).toBe('aal2');
  });

  it('refuses a TOTP code that was already used within its step', async () => {
    const user = await userWithSecondFactor();
    const first = newBrowser(portaal.publicUrl);
    await loginWithPassword(first, user.email, user.password);
    await loginSecondFactor(first, user.secret);

    const second = newBrowser(portaal.publicUrl);
    await loginWithPassword(second, user.email, user.password);
    const flow = await second.frontend.createBrowserLoginFlow({ aal: 'aal2' });
    const { status, body } = await failure(
      second.frontend.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: { method: 'totp', totp_code: await totpCode(user.secret), csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(status).toBe(400);
    expect(body.ui.messages.map((m: { id: number }) => m.id)).toEqual([4000008]);
    expect((await failure(second.frontend.toSession())).status).toBe(403);
  });

  it('accepts a backup code once and refuses it the second time', async () => {
    const user = await userWithSecondFactor();
    const code = user.codes[0]!;
    const first = newBrowser(portaal.publicUrl);
    await loginWithPassword(first, user.email, user.password);
    const flow = await first.frontend.createBrowserLoginFlow({ aal: 'aal2' });
    const done = await first.frontend.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: code, csrf_token: csrfTokenOf(flow) },
    });
    expect(done.session.authenticator_assurance_level).toBe('aal2');

    const second = newBrowser(portaal.publicUrl);
    await loginWithPassword(second, user.email, user.password);
    const again = await second.frontend.createBrowserLoginFlow({ aal: 'aal2' });
    const { status, body } = await failure(
      second.frontend.updateLoginFlow({
        flow: again.id,
        updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: code, csrf_token: csrfTokenOf(again) },
      }),
    );
    expect(status).toBe(400);
    expect(messageIds(body)).toEqual([4000012]);

    const { data } = await identityApi(portaal.adminUrl).getIdentity({
      id: user.id,
      includeCredential: ['lookup_secret'],
    });
    const stored = (data.credentials!.lookup_secret!.config as any).recovery_codes as {
      code: string;
      used_at?: string;
    }[];
    expect(stored.find((c) => c.code === code)?.used_at).toBeTruthy();
    expect(stored.filter((c) => !c.used_at)).toHaveLength(11);
  });

  // Checklist item: docs/security.md#13-backup-codes-work-once
  it('lets exactly one of two sign-ins that send the same backup code at once through (checklist 13)', async () => {
    const user = await userWithSecondFactor();
    const code = user.codes[1]!;
    const attempts = await Promise.all(
      [0, 1].map(async () => {
        const browser = newBrowser(portaal.publicUrl);
        await loginWithPassword(browser, user.email, user.password);
        return { browser, flow: await browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }) };
      }),
    );
    const outcomes = await Promise.allSettled(
      attempts.map(({ browser, flow }) =>
        browser.frontend.updateLoginFlow({
          flow: flow.id,
          updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: code, csrf_token: csrfTokenOf(flow) },
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = await failure(
      Promise.reject((outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason),
    );
    expect(messageIds(refused.body)).toEqual([4000012]);
  });

  // Checklist item: docs/security.md#9-a-totp-code-works-once
  it('lets exactly one of two sign-ins that send the same TOTP code at once through (checklist 9)', async () => {
    const user = await userWithSecondFactor();
    const attempts = await Promise.all(
      [0, 1].map(async () => {
        const browser = newBrowser(portaal.publicUrl);
        await loginWithPassword(browser, user.email, user.password);
        return { browser, flow: await browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }) };
      }),
    );
    const code = await totpCode(user.secret);
    const outcomes = await Promise.allSettled(
      attempts.map(({ browser, flow }) =>
        browser.frontend.updateLoginFlow({
          flow: flow.id,
          updateLoginFlowBody: { method: 'totp', totp_code: code, csrf_token: csrfTokenOf(flow) },
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('shows the codes with 1050015 and used ones with 1050014 when revealed', async () => {
    const user = await userWithSecondFactor();
    const browser = newBrowser(portaal.publicUrl);
    await loginWithPassword(browser, user.email, user.password);
    const flow = await browser.frontend.createBrowserLoginFlow({ aal: 'aal2' });
    await browser.frontend.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: user.codes[3]!, csrf_token: csrfTokenOf(flow) },
    });
    const settings = await browser.frontend.createBrowserSettingsFlow({});
    const revealed = await browser.frontend.updateSettingsFlow({
      flow: settings.id,
      updateSettingsFlowBody: {
        method: 'lookup_secret',
        lookup_secret_reveal: true,
        csrf_token: csrfTokenOf(settings),
      },
    });
    const codes = revealed.ui.nodes.find((n: any) => n.attributes.id === 'lookup_secret_codes') as any;
    expect(codes.attributes.text.id).toBe(1050015);
    const ids = codes.attributes.text.context.secrets.map((s: { id: number }) => s.id);
    expect(ids.filter((id: number) => id === 1050014)).toHaveLength(1);
    expect(ids.filter((id: number) => id === 1050009)).toHaveLength(11);
  });

  it('admin removes the TOTP credential: the identity signs in at aal1 again', async () => {
    const user = await userWithSecondFactor();
    const identities = identityApi(portaal.adminUrl);
    await identities.deleteIdentityCredentials({ id: user.id, type: 'totp' });
    await identities.deleteIdentityCredentials({ id: user.id, type: 'lookup_secret' });
    const { data } = await identities.getIdentity({ id: user.id });
    expect(Object.keys(data.credentials ?? {})).toEqual(['password']);
    const browser = newBrowser(portaal.publicUrl);
    await loginWithPassword(browser, user.email, user.password);
    expect((await browser.frontend.toSession()).authenticator_assurance_level).toBe('aal1');
    const missing = await failure(identities.deleteIdentityCredentials({ id: user.id, type: 'totp' }));
    expect(missing.status).toBe(404);
    const firstFactor = await failure(identities.deleteIdentityCredentials({ id: user.id, type: 'password' }));
    expect(firstFactor.status).toBe(400);
  });
});
