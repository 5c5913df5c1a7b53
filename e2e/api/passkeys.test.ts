import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginFlow, SettingsFlow } from '@ory/client-fetch';
import { startPortaal, type Portaal } from '../support/portaal.js';
import {
  type Browser,
  csrfTokenOf,
  explained,
  failure,
  identityApi,
  messageIds,
  newBrowser,
  nodeNamed,
} from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { loginWithPassword } from '../support/flows.js';
import { type CeremonyTweaks, SoftwareAuthenticator } from '../support/software-authenticator.js';

/**
 * Passkeys (first factor) and security keys (`webauthn`, second factor) against the real provider, with a software
 * authenticator for the ceremonies (docs/kratos-compatibility.md#passkeys-and-security-keys).
 */
let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal();
});
afterAll(async () => {
  await portaal?.stop();
});

const admin = () => identityApi(portaal.adminUrl);

/** A signed-in user (password) with a browser and an authenticator of their own. */
async function signedInUser() {
  const user = await createPasswordIdentity(admin());
  const browser = newBrowser(portaal.publicUrl);
  await explained(loginWithPassword(browser, user.email, user.password));
  return { ...user, browser, authenticator: new SoftwareAuthenticator(portaal.publicUrl) };
}

const settingsFlow = (browser: Browser) => explained(browser.frontend.createBrowserSettingsFlow({}));

/** Submits a settings flow and answers the flow JSON, also for the 400 of a refusal. */
async function submitSettings(browser: Browser, flow: SettingsFlow, body: Record<string, string>) {
  const answer = await browser.fetch(`${portaal.publicUrl}/self-service/settings?flow=${flow.id}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ csrf_token: csrfTokenOf(flow), ...body }),
  });
  return { status: answer.status, body: (await answer.json()) as any };
}

/** Submits a login flow as an SPA does and answers status and JSON. */
async function submitLogin(browser: Browser, flow: LoginFlow, body: Record<string, string>) {
  const answer = await browser.fetch(`${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ csrf_token: csrfTokenOf(flow), ...body }),
  });
  return { status: answer.status, body: (await answer.json()) as any };
}

async function addPasskey(browser: Browser, authenticator: SoftwareAuthenticator, tweaks?: CeremonyTweaks) {
  const flow = await settingsFlow(browser);
  const options = nodeNamed(flow, 'passkey_create_data').attributes.value;
  return submitSettings(browser, flow, {
    method: 'passkey',
    passkey_settings_register: authenticator.create(options, tweaks),
  });
}

async function addSecurityKey(browser: Browser, authenticator: SoftwareAuthenticator, name = 'Sleutelbos') {
  const flow = await settingsFlow(browser);
  const options = nodeNamed(flow, 'webauthn_register_trigger').attributes.value;
  return submitSettings(browser, flow, {
    method: 'webauthn',
    webauthn_register: authenticator.create(options),
    webauthn_register_displayname: name,
  });
}

/** A new browser signs in with the authenticator's passkey. */
async function passkeyLogin(authenticator: SoftwareAuthenticator, tweaks?: CeremonyTweaks, browser?: Browser) {
  const client = browser ?? newBrowser(portaal.publicUrl);
  const flow = await explained(client.frontend.createBrowserLoginFlow({}));
  const options = nodeNamed(flow, 'passkey_challenge').attributes.value;
  const answer = await submitLogin(client, flow, {
    method: 'passkey',
    passkey_login: authenticator.get(options, tweaks),
  });
  return { ...answer, browser: client, flow };
}

/** The aal2 step with the security key, in a browser that passed the password step. */
async function securityKeyLogin(
  browser: Browser,
  email: string,
  authenticator: SoftwareAuthenticator,
  t?: CeremonyTweaks,
) {
  const flow = await explained(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
  const options = nodeNamed(flow, 'webauthn_login_trigger').attributes.value;
  return submitLogin(browser, flow, {
    method: 'webauthn',
    identifier: email,
    webauthn_login: authenticator.get(options, t),
  });
}

const storedKeys = async (id: string, type: 'webauthn' | 'passkey') => {
  const { data } = await admin().getIdentity({ id, includeCredential: [type] });
  return data.credentials?.[type]?.config as any;
};

describe('passkeys', () => {
  it('adds a passkey in settings and signs in with it at aal1', async () => {
    const user = await signedInUser();
    const added = await addPasskey(user.browser, user.authenticator);
    expect(added.status, JSON.stringify(added.body.ui?.messages)).toBe(200);
    const removeButton = added.body.ui.nodes.find((n: any) => n.attributes.name === 'passkey_remove');
    expect(removeButton.attributes.value).toBe(user.authenticator.keys[0]!.id.toString('hex'));
    expect(removeButton.meta.label.id).toBe(1050020);

    const login = await passkeyLogin(user.authenticator);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.session.identity.id).toBe(user.id);
    expect(login.body.session.authenticator_assurance_level).toBe('aal1');
    expect(login.body.session.authentication_methods.map((m: any) => [m.method, m.aal])).toEqual([['passkey', 'aal1']]);
    expect((await login.browser.frontend.toSession()).identity?.id).toBe(user.id);

    const stored = await storedKeys(user.id, 'passkey');
    expect(stored.credentials).toHaveLength(1);
    expect(stored.credentials[0]).toMatchObject({
      id: user.authenticator.keys[0]!.id.toString('base64'),
      attestation_type: 'none',
      is_passwordless: true,
      authenticator: { sign_count: 1, clone_warning: false },
    });
    expect(typeof stored.user_handle).toBe('string');
  });

  it('offers passkey sign-in on the login flow with Kratos’ nodes', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
    expect(nodeNamed(flow, 'identifier').attributes.autocomplete).toBe('username webauthn');
    const trigger = nodeNamed(flow, 'passkey_login_trigger');
    expect(trigger.group).toBe('passkey');
    expect(trigger.attributes).toMatchObject({ type: 'button', onclickTrigger: 'oryPasskeyLogin' });
    expect(trigger.meta.label.id).toBe(1010021);
    expect(nodeNamed(flow, 'passkey_login').attributes.onloadTrigger).toBe('oryPasskeyLoginAutocompleteInit');
    const options = JSON.parse(nodeNamed(flow, 'passkey_challenge').attributes.value);
    expect(options.publicKey.rpId).toBe(new URL(portaal.publicUrl).hostname);
    expect(options.publicKey.userVerification).toBe('required');
    const script = flow.ui.nodes.find((n: any) => n.attributes.id === 'webauthn_script');
    expect(script?.type).toBe('script');
  });
});

describe('security keys', () => {
  it('adds a security key; password then key gives aal2 and the counter rises', async () => {
    const user = await signedInUser();
    const added = await addSecurityKey(user.browser, user.authenticator);
    expect(added.status, JSON.stringify(added.body.ui?.messages)).toBe(200);
    expect(messageIds(added.body)).toContain(1050001);

    const browser = newBrowser(portaal.publicUrl);
    const first = await loginWithPassword(browser, user.email, user.password);
    expect(first.redirectBrowserTo).toContain('aal=aal2');
    const second = await securityKeyLogin(browser, user.email, user.authenticator);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.session.authenticator_assurance_level).toBe('aal2');
    expect(second.body.session.authentication_methods.map((m: any) => [m.method, m.aal])).toEqual([
      ['password', 'aal1'],
      ['webauthn', 'aal2'],
    ]);
    const stored = await storedKeys(user.id, 'webauthn');
    expect(stored.credentials[0]).toMatchObject({ display_name: 'Sleutelbos', is_passwordless: false });
    expect(stored.credentials[0].authenticator.sign_count).toBe(user.authenticator.keys[0]!.signCount);
  });
});

describe('refusals', () => {
  it('refuses a passkey answer for another challenge (4000043)', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    const login = await passkeyLogin(user.authenticator, { challenge: Buffer.from('vreemd').toString('base64url') });
    expect(login.status).toBe(400);
    expect(messageIds(login.body)).toEqual([4000043]);
  });

  it('answers malformed JSON with a message, not a 500', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
    const answer = await submitLogin(browser, flow, { method: 'passkey', passkey_login: '{"id":' });
    expect(answer.status).toBe(400);
    expect(messageIds(answer.body)).toEqual([4000001]);
  });

  it('refuses to add the same key twice', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    expect(true).toBe(true);
  });

  it('shows admin delete rules', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    const refused = await failure(admin().deleteIdentityCredentials({ id: user.id, type: 'passkey' }));
    expect(refused.status).toBe(400);
  });
});
