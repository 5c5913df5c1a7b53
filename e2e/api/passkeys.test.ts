import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  instanceOfUiNode,
  instanceOfUiNodeImageAttributes,
  instanceOfUiNodeInputAttributes,
  instanceOfUiNodeScriptAttributes,
  instanceOfUiNodeTextAttributes,
  instanceOfUiText,
  type LoginFlow,
  type SettingsFlow,
  UiNodeGroupEnum,
  UiNodeInputAttributesAutocompleteEnum,
  UiNodeInputAttributesOnclickTriggerEnum,
  UiNodeInputAttributesOnloadTriggerEnum,
  UiNodeInputAttributesTypeEnum,
  UiNodeTypeEnum,
} from '@ory/client-fetch';
import { startPortaal, type Portaal } from '../support/portaal.js';
import {
  type Browser,
  csrfTokenOf,
  explained,
  failure,
  identityApi,
  messageIds,
  newBrowser,
  newNativeClient,
  nodeNamed,
} from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { portaalCli } from '../support/portal-users.js';
import { loginWithPassword } from '../support/flows.js';
import { type CeremonyTweaks, SoftwareAuthenticator } from '../support/software-authenticator.js';

/**
 * Passkeys (first factor) and security keys (`webauthn`, second factor) against the real provider, with a software
 * authenticator for the ceremonies (docs/kratos-compatibility.md#passkeys-and-security-keys).
 */
let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal({ env: { REGISTRATION_ENABLED: 'true' } });
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

/** The audit entries about a person's keys (from their data export), oldest first, once there are `count`. */
async function auditedKeyEntries(email: string, count: number): Promise<{ action: string; details: unknown }[]> {
  // The audit listener writes after the answer: wait for it rather than race it.
  let entries: { action: string; details: unknown }[] = [];
  await expect
    .poll(() => {
      const exported = JSON.parse(portaalCli(portaal, ['user', 'export', '--email', email]).stdout);
      entries = exported.audit.filter((e: { action: string }) => /^(passkey|security_key)\./.test(e.action));
      return entries.length;
    })
    .toBe(count);
  return entries;
}

/** Someone without a password (an invited person), signed in through an admin recovery code. */
async function passwordlessUser() {
  const email = `sleutel-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@voorbeeldstad.nl`;
  const { data: identity } = await admin().createIdentity({
    createIdentityBody: { schema_id: 'default', traits: { email, name: { first: 'Zonder', last: 'Wachtwoord' } } },
  });
  const { data } = await admin().createRecoveryCodeForIdentity({
    createRecoveryCodeForIdentityBody: { identity_id: identity.id },
  });
  const browser = newBrowser(portaal.publicUrl);
  const flow = await explained(
    browser.frontend.getRecoveryFlow({ id: new URL(data.recovery_link).searchParams.get('flow')! }),
  );
  await failure(
    browser.frontend.updateRecoveryFlow({
      flow: flow.id,
      updateRecoveryFlowBody: { method: 'code', code: data.recovery_code, csrf_token: csrfTokenOf(flow) },
    }),
  );
  expect((await browser.frontend.toSession()).identity?.id).toBe(identity.id);
  return { id: identity.id, email, browser, authenticator: new SoftwareAuthenticator(portaal.publicUrl) };
}

const settingsFlow = (browser: Browser) => explained(browser.frontend.createBrowserSettingsFlow({}));

/** Submits a settings flow and answers the flow JSON, also for the 400 of a refusal. */
async function submitSettings(browser: Browser, flow: SettingsFlow, body: Record<string, unknown>) {
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

async function submitRegistration(
  browser: Browser,
  flow: { id: string; ui: { nodes: any[] } },
  body: Record<string, unknown>,
) {
  const answer = await browser.fetch(`${portaal.publicUrl}/self-service/registration?flow=${flow.id}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ csrf_token: csrfTokenOf(flow), ...body }),
  });
  return { status: answer.status, body: (await answer.json()) as any };
}

async function addPasskey(
  browser: Browser,
  authenticator: SoftwareAuthenticator,
  tweaks?: CeremonyTweaks,
  extra: Record<string, unknown> = {},
) {
  const flow = await settingsFlow(browser);
  const options = nodeNamed(flow, 'passkey_create_data').attributes.value;
  return submitSettings(browser, flow, {
    method: 'passkey',
    passkey_settings_register: authenticator.create(options, tweaks),
    ...extra,
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

/**
 * The ways a flow's nodes break Kratos' OpenAPI document, checked with the models Ory generates from it
 * (`@ory/client-fetch`): required properties, and the enums of groups, types, autocomplete and the script triggers.
 */
function openApiViolations(flow: { ui: { nodes: any[]; messages?: unknown[] } }): string[] {
  const found: string[] = [];
  const within = (value: unknown, allowed: Record<string, string>) =>
    value === undefined || (Object.values(allowed).includes(String(value)) && value !== '11184809');
  const attributeCheck: Record<string, (value: object) => boolean> = {
    input: instanceOfUiNodeInputAttributes,
    script: instanceOfUiNodeScriptAttributes,
    text: instanceOfUiNodeTextAttributes,
    img: instanceOfUiNodeImageAttributes,
  };
  for (const message of flow.ui.messages ?? []) if (!instanceOfUiText(message as object)) found.push('ui.messages');
  for (const node of flow.ui.nodes) {
    const name = node.attributes?.name ?? node.attributes?.id;
    const a = node.attributes ?? {};
    if (!instanceOfUiNode(node)) found.push(`${name}: node`);
    if (!within(node.group, UiNodeGroupEnum)) found.push(`${name}: group ${node.group}`);
    if (!within(node.type, UiNodeTypeEnum)) found.push(`${name}: type ${node.type}`);
    if (a.node_type !== node.type) found.push(`${name}: node_type`);
    if (!attributeCheck[node.type]?.(a)) found.push(`${name}: attributes`);
    if (node.type === 'input') {
      if (!within(a.type, UiNodeInputAttributesTypeEnum)) found.push(`${name}: input type ${a.type}`);
      if (!within(a.autocomplete, UiNodeInputAttributesAutocompleteEnum)) found.push(`${name}: autocomplete`);
      if (!within(a.onclickTrigger, UiNodeInputAttributesOnclickTriggerEnum)) found.push(`${name}: onclickTrigger`);
      if (!within(a.onloadTrigger, UiNodeInputAttributesOnloadTriggerEnum)) found.push(`${name}: onloadTrigger`);
    }
    for (const text of [...node.messages, ...(node.meta.label ? [node.meta.label] : [])])
      if (!instanceOfUiText(text)) found.push(`${name}: text`);
  }
  return found;
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

    // A native app signs in with the same passkey through an API flow, as Kratos v26 lets it.
    const native = newNativeClient(portaal.publicUrl);
    const apiFlow = await explained(native.createNativeLoginFlow({}));
    const signedIn = await explained(
      native.updateLoginFlow({
        flow: apiFlow.id,
        updateLoginFlowBody: {
          method: 'passkey',
          passkey_login: user.authenticator.get(nodeNamed(apiFlow, 'passkey_challenge').attributes.value),
        },
      }),
    );
    expect(signedIn.session_token).toMatch(/^ory_st_/);
    expect(signedIn.session.identity?.id).toBe(user.id);
    expect(signedIn.session.authentication_methods?.map((m) => m.method)).toEqual(['passkey']);

    const stored = await storedKeys(user.id, 'passkey');
    expect(stored.credentials).toHaveLength(1);
    expect(stored.credentials[0]).toMatchObject({
      id: user.authenticator.keys[0]!.id.toString('base64'),
      attestation_type: 'none',
      is_passwordless: true,
      authenticator: { sign_count: 2, clone_warning: false },
    });
    expect(typeof stored.user_handle).toBe('string');
  });

  it('names a passkey with passkey_display_name (our extension), and refuses a name too long', async () => {
    const user = await signedInUser();
    const long = await addPasskey(user.browser, user.authenticator, undefined, {
      passkey_display_name: 'x'.repeat(101),
    });
    expect(long.status).toBe(400);
    expect(long.body.ui.messages.map((m: any) => m.id)).toEqual([4000017]);
    expect(await storedKeys(user.id, 'passkey')).toBeUndefined();

    const added = await addPasskey(user.browser, user.authenticator, undefined, {
      passkey_display_name: ' Passkey op Chrome op Linux ',
    });
    expect(added.status, JSON.stringify(added.body.ui?.messages)).toBe(200);
    const removeButton = nodeNamed(added.body, 'passkey_remove');
    expect(removeButton.meta.label).toMatchObject({
      id: 1050020,
      text: 'Remove passkey "Passkey op Chrome op Linux"',
      context: { display_name: 'Passkey op Chrome op Linux' },
    });
    expect((await storedKeys(user.id, 'passkey')).credentials[0].display_name).toBe('Passkey op Chrome op Linux');
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

describe('flow JSON', () => {
  it('keeps to Kratos’ OpenAPI document in every flow with key nodes, browser and API', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    await addSecurityKey(user.browser, user.authenticator);
    const aal2 = newBrowser(portaal.publicUrl);
    await loginWithPassword(aal2, user.email, user.password);
    const api = newNativeClient(portaal.publicUrl);
    const signingUp = newBrowser(portaal.publicUrl);
    const registration = await explained(signingUp.frontend.createBrowserRegistrationFlow({}));
    const flows = {
      login: await explained(newBrowser(portaal.publicUrl).frontend.createBrowserLoginFlow({})),
      loginApi: await explained(api.createNativeLoginFlow({})),
      aal2: await explained(aal2.frontend.createBrowserLoginFlow({ aal: 'aal2' })),
      refresh: await explained(user.browser.frontend.createBrowserLoginFlow({ refresh: true })),
      settings: await settingsFlow(user.browser),
      credentialStep: (
        await submitRegistration(signingUp, registration, {
          method: 'profile',
          traits: { email: `schema-${Date.now()}@voorbeeldstad.nl` },
        })
      ).body,
    };
    for (const [name, flow] of Object.entries(flows)) expect(openApiViolations(flow), name).toEqual([]);
    // And the check can fail.
    expect(openApiViolations({ ui: { nodes: [{ ...nodeNamed(flows.login, 'passkey_login'), group: 'x' }] } })).toEqual([
      'passkey_login: group x',
    ]);
    expect(nodeNamed(flows.loginApi, 'passkey_challenge')).toBeDefined();
    expect(flows.loginApi.ui.nodes.some((n: any) => n.type === 'script')).toBe(false);
    expect(nodeNamed(flows.loginApi, 'passkey_login_trigger').attributes.onclick).toBeUndefined();
  });
});

describe('the WebAuthn script', () => {
  it('is served publicly with the integrity its node names and the functions Ory Elements calls', async () => {
    const answer = await fetch(`${portaal.publicUrl}/.well-known/ory/webauthn.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, no-cache');
    const script = await answer.text();
    const flow = await explained(newBrowser(portaal.publicUrl).frontend.createBrowserLoginFlow({}));
    const node = flow.ui.nodes.find((n: any) => n.attributes.id === 'webauthn_script')!.attributes as any;
    expect(node.src).toBe(`${portaal.publicUrl}/.well-known/ory/webauthn.js`);
    expect(node.integrity).toBe(`sha512-${createHash('sha512').update(script).digest('base64')}`);
    expect(script).toContain("window['ory' + name]");
    const etag = answer.headers.get('etag')!;
    const again = await fetch(`${portaal.publicUrl}/.well-known/ory/webauthn.js`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });
});

describe('registration with a passkey', () => {
  it('signs up with a passkey instead of a password, then signs in with it', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const authenticator = new SoftwareAuthenticator(portaal.publicUrl);
    const email = `aanmelder-${Date.now()}@voorbeeldstad.nl`;
    const flow = await explained(browser.frontend.createBrowserRegistrationFlow({}));
    const submit = (body: Record<string, unknown>, current: { id: string; ui: { nodes: any[] } }) =>
      submitRegistration(browser, current, body);
    const traits = { email, name: { first: 'Pas', last: 'Sleutel' } };
    const step = await submit({ method: 'profile', traits }, flow);
    expect(step.status).toBe(400);
    const createData = JSON.parse(nodeNamed(step.body, 'passkey_create_data').attributes.value);
    expect(createData.displayNameFieldName).toBe('traits.email');
    expect(createData.credentialOptions.publicKey.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(nodeNamed(step.body, 'passkey_register_trigger')).toMatchObject({
      group: 'passkey',
      attributes: { onclickTrigger: 'oryPasskeyRegistration' },
      meta: { label: { id: 1040007 } },
    });
    const refused = await submit({ method: 'passkey', passkey_register: '{"x":' }, step.body);
    expect(messageIds(refused.body)).toEqual([4000001]);
    const again = JSON.parse(nodeNamed(refused.body, 'passkey_create_data').attributes.value);
    const done = await submit({ method: 'passkey', passkey_register: authenticator.create(again) }, refused.body);
    expect(done.status, JSON.stringify(done.body.ui?.messages)).toBe(200);
    expect(done.body.identity.traits.email).toBe(email);
    const { data } = await admin().getIdentity({ id: done.body.identity.id });
    expect(Object.keys(data.credentials ?? {})).toEqual(['passkey']);

    const login = await passkeyLogin(authenticator);
    expect(login.status).toBe(200);
    expect(login.body.session.identity.traits.email).toBe(email);
  });
});

describe('re-authentication', () => {
  it('offers only the person’s own passkeys on a refresh and renews the session with one', async () => {
    const person = await passwordlessUser();
    await addPasskey(person.browser, person.authenticator);
    const flow = await explained(person.browser.frontend.createBrowserLoginFlow({ refresh: true }));
    const options = JSON.parse(nodeNamed(flow, 'passkey_challenge').attributes.value);
    expect(options.publicKey.allowCredentials.map((c: { id: string }) => c.id)).toEqual([
      person.authenticator.keys[0]!.id.toString('base64url'),
    ]);
    // Someone else's passkey does not re-authenticate this session.
    const other = await signedInUser();
    await addPasskey(other.browser, other.authenticator);
    const foreign = await submitLogin(person.browser, flow, {
      method: 'passkey',
      passkey_login: other.authenticator.get(options, { key: other.authenticator.keys[0] }),
    });
    expect(messageIds(foreign.body)).toEqual([4000043]);
    const renewed = await submitLogin(person.browser, foreign.body, {
      method: 'passkey',
      passkey_login: person.authenticator.get(nodeNamed(foreign.body, 'passkey_challenge').attributes.value),
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body.session.identity.id).toBe(person.id);
    expect(renewed.body.session.authentication_methods.map((m: any) => m.method)).toContain('passkey');
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
  it('refuses a passkey answer for another challenge, origin or RP ID with 4000043', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    const foreign = Buffer.from('een-andere-uitdaging').toString('base64url');
    for (const tweaks of [{ challenge: foreign }, { origin: 'https://aanvaller.example' }, { rpId: 'example.org' }]) {
      const login = await passkeyLogin(user.authenticator, tweaks);
      expect(login.status, JSON.stringify(tweaks)).toBe(400);
      expect(messageIds(login.body)).toEqual([4000043]);
      // The refused attempt used up the challenge; the form comes back with a new one.
      const again = nodeNamed(login.body, 'passkey_challenge').attributes.value;
      expect(again).not.toBe(nodeNamed(login.flow, 'passkey_challenge').attributes.value);
    }
  });

  it('answers a replayed sign-in with 4000043 on a new flow and 4010007 on the finished one', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    const login = await passkeyLogin(user.authenticator);
    expect(login.status).toBe(200);
    const client = newBrowser(portaal.publicUrl);
    const flow = await explained(client.frontend.createBrowserLoginFlow({}));
    // The answer that signed in, signed over the old challenge, on a new flow.
    const options = nodeNamed(login.flow, 'passkey_challenge').attributes.value;
    const replay = user.authenticator.get(options);
    const refused = await submitLogin(client, flow, { method: 'passkey', passkey_login: replay });
    expect(refused.status).toBe(400);
    expect(messageIds(refused.body)).toEqual([4000043]);
    const finished = await submitLogin(login.browser, login.flow, { method: 'passkey', passkey_login: replay });
    expect(messageIds(finished.body)).toEqual([4010007]);
  });

  it('lets only one of several requests answering the same challenge at once sign in', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
    const answer = user.authenticator.get(nodeNamed(flow, 'passkey_challenge').attributes.value);
    const results = await Promise.all(
      [1, 2, 3].map(() => submitLogin(browser, flow, { method: 'passkey', passkey_login: answer })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('asks for the second factor after a passkey, as Kratos counts a passkey as aal1', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    await addSecurityKey(user.browser, user.authenticator);
    const login = await passkeyLogin(user.authenticator);
    expect(login.status).toBe(422);
    expect(login.body.redirect_browser_to).toContain('aal=aal2');
    const second = await securityKeyLogin(login.browser, user.email, user.authenticator);
    expect(second.status).toBe(200);
    expect(second.body.session.authenticator_assurance_level).toBe('aal2');
    expect(second.body.session.authentication_methods.map((m: any) => m.method)).toEqual(['passkey', 'webauthn']);
  });

  it('requires user verification for passkeys', async () => {
    const user = await signedInUser();
    const unverified = await addPasskey(user.browser, user.authenticator, { userVerified: false });
    expect(unverified.status).toBe(400);
    expect(messageIds(unverified.body)).toEqual([4000043]);
    await addPasskey(user.browser, user.authenticator);
    const login = await passkeyLogin(user.authenticator, { userVerified: false, key: user.authenticator.keys[1] });
    expect(messageIds(login.body)).toEqual([4000043]);
  });

  it('answers an unknown passkey with 4000015 and malformed answers with a message, never a 500', async () => {
    const stranger = new SoftwareAuthenticator(portaal.publicUrl);
    const browser = newBrowser(portaal.publicUrl);
    const flow = await explained(browser.frontend.createBrowserLoginFlow({}));
    stranger.create({ publicKey: { challenge: 'AA', user: { id: 'b25iZWtlbmQ', name: 'x' } } });
    const unknown = await submitLogin(browser, flow, {
      method: 'passkey',
      passkey_login: stranger.get(nodeNamed(flow, 'passkey_challenge').attributes.value),
    });
    expect(messageIds(unknown.body)).toEqual([4000015]);
    for (const bad of [
      '{"id":',
      '[]',
      '{"id":"x","rawId":"x","type":"public-key","response":{}}',
      'x'.repeat(70_000),
    ]) {
      const fresh = await explained(browser.frontend.createBrowserLoginFlow({}));
      const answer = await submitLogin(browser, fresh, { method: 'passkey', passkey_login: bad });
      expect(answer.status).toBe(400);
      expect(messageIds(answer.body)).toEqual([4000001]);
    }
    const user = await signedInUser();
    const settings = await settingsFlow(user.browser);
    for (const [method, field] of [
      ['passkey', 'passkey_settings_register'],
      ['webauthn', 'webauthn_register'],
    ] as const) {
      const answer = await submitSettings(user.browser, settings, { method, [field]: '{"kapot"' });
      expect(answer.status).toBe(400);
      expect(messageIds(answer.body)).toEqual([4000001]);
    }
  });

  it('refuses to add a key that is registered already, as either kind', async () => {
    const user = await signedInUser();
    expect((await addPasskey(user.browser, user.authenticator)).status).toBe(200);
    const first = user.authenticator.keys[0]!;
    const flow = await settingsFlow(user.browser);
    const passkeyOptions = JSON.parse(nodeNamed(flow, 'passkey_create_data').attributes.value);
    expect(passkeyOptions.publicKey.excludeCredentials).toEqual([
      expect.objectContaining({ id: first.id.toString('base64url') }),
    ]);
    // An authenticator that ignores the exclusion list answers with the key it made before.
    const again = await submitSettings(user.browser, flow, {
      method: 'passkey',
      passkey_settings_register: user.authenticator.create(passkeyOptions, { key: first }),
    });
    expect(again.status).toBe(400);
    const node = nodeNamed(again.body, 'passkey_settings_register');
    expect(node.messages).toEqual([
      expect.objectContaining({
        id: 4000001,
        text: 'this security key or passkey is already registered with your account',
      }),
    ]);
    const asSecurityKey = await submitSettings(user.browser, again.body, {
      method: 'webauthn',
      webauthn_register: user.authenticator.create(
        nodeNamed(again.body, 'webauthn_register_trigger').attributes.value,
        {
          key: first,
        },
      ),
    });
    expect(nodeNamed(asSecurityKey.body, 'webauthn_register').messages.map((m: any) => m.id)).toEqual([4000001]);
  });

  it('does not take a passkey as second factor', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    await addSecurityKey(user.browser, user.authenticator);
    const browser = newBrowser(portaal.publicUrl);
    await loginWithPassword(browser, user.email, user.password);
    const passkey = user.authenticator.keys[0]!;
    const answer = await securityKeyLogin(browser, user.email, user.authenticator, { key: passkey });
    expect(answer.status).toBe(400);
    expect(messageIds(answer.body)).toEqual([4000043]);
    const malformed = await (async () => {
      const flow = await explained(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
      return submitLogin(browser, flow, { method: 'webauthn', identifier: user.email, webauthn_login: '{"kapot"' });
    })();
    expect(malformed.status).toBe(400);
    expect(messageIds(malformed.body)).toEqual([4000001]);
    // The method needs a non-empty identifier, as Kratos' schema says.
    for (const [identifier, id] of [
      ['', 4000003],
      [undefined, 4000002],
    ] as const) {
      const flow = await explained(browser.frontend.createBrowserLoginFlow({ aal: 'aal2' }));
      const body = { method: 'webauthn', webauthn_login: '', ...(identifier === undefined ? {} : { identifier }) };
      const missing = await submitLogin(browser, flow, body);
      expect(missing.status).toBe(400);
      expect(nodeNamed(missing.body, 'identifier').messages.map((m: any) => m.id)).toEqual([id]);
    }
  });

  it('refuses to remove the last way to sign in; with a password left, removes the passkey', async () => {
    const person = await passwordlessUser();
    expect((await addPasskey(person.browser, person.authenticator)).status).toBe(200);
    const hex = person.authenticator.keys[0]!.id.toString('hex');
    const flow = await settingsFlow(person.browser);
    expect(nodeNamed(flow, 'passkey_remove').attributes.disabled).toBe(true);
    const refused = await submitSettings(person.browser, flow, { method: 'passkey', passkey_remove: hex });
    expect(refused.status).toBe(400);
    expect(nodeNamed(refused.body, 'webauthn_remove').messages).toEqual([
      expect.objectContaining({
        id: 4000001,
        text: 'unable to remove this security key because it would lock you out of your account',
      }),
    ]);
    expect((await storedKeys(person.id, 'passkey')).credentials).toHaveLength(1);

    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    const withPassword = await settingsFlow(user.browser);
    const button = nodeNamed(withPassword, 'passkey_remove');
    expect(button.attributes.disabled).toBe(false);
    const removed = await submitSettings(user.browser, withPassword, {
      method: 'passkey',
      passkey_remove: button.attributes.value,
    });
    expect(removed.status).toBe(200);
    expect(await storedKeys(user.id, 'passkey')).toBeUndefined();
    expect((await passkeyLogin(user.authenticator)).status).toBe(400);
    expect((await auditedKeyEntries(user.email, 2)).map((e) => e.action)).toEqual(['passkey.add', 'passkey.remove']);
    for (const notice of ['Er is een passkey aan je account toegevoegd', 'Er is een passkey van je account verwijderd'])
      await portaal.mail.waitFor(user.email, { filter: (mail) => mail.subject === notice });
  });

  it('refuses a security key name that is too long or hides characters', async () => {
    const user = await signedInUser();
    for (const [name, id] of [
      ['x'.repeat(101), 4000017],
      ['sleutel\u202egnik', 4000004],
    ] as const) {
      const flow = await settingsFlow(user.browser);
      const options = nodeNamed(flow, 'webauthn_register_trigger').attributes.value;
      const answer = await submitSettings(user.browser, flow, {
        method: 'webauthn',
        webauthn_register: user.authenticator.create(options),
        webauthn_register_displayname: name,
      });
      expect(answer.status).toBe(400);
      expect(nodeNamed(answer.body, 'webauthn_register_displayname').messages.map((m: any) => m.id)).toEqual([id]);
    }
    expect(await storedKeys(user.id, 'webauthn')).toBeUndefined();
  });

  it('removes a security key in settings, and a missing key is a message', async () => {
    const user = await signedInUser();
    await addSecurityKey(user.browser, user.authenticator);
    const flow = await settingsFlow(user.browser);
    const button = nodeNamed(flow, 'webauthn_remove');
    expect(button.meta.label).toMatchObject({ id: 1050018, context: { display_name: 'Sleutelbos' } });
    const missing = await submitSettings(user.browser, flow, { method: 'webauthn', webauthn_remove: 'abcdef' });
    expect(missing.status).toBe(400);
    expect(missing.body.ui.messages.map((m: any) => m.text)).toEqual([
      'You tried to remove a WebAuthn credential which does not exist.',
    ]);
    const removed = await submitSettings(user.browser, missing.body, {
      method: 'webauthn',
      webauthn_remove: button.attributes.value,
    });
    expect(removed.status).toBe(200);
    expect(await storedKeys(user.id, 'webauthn')).toBeUndefined();
    for (const notice of [
      'Er is een beveiligingssleutel aan je account toegevoegd',
      'Er is een beveiligingssleutel van je account verwijderd',
    ])
      await portaal.mail.waitFor(user.email, { filter: (mail) => mail.subject === notice });
    expect(await auditedKeyEntries(user.email, 2)).toEqual([
      expect.objectContaining({ action: 'security_key.add', details: { display_name: 'Sleutelbos' } }),
      expect.objectContaining({ action: 'security_key.remove', details: { display_name: 'Sleutelbos' } }),
    ]);
  });
});

describe('counters', () => {
  it('signs in with a counter that does not rise, and marks the key with clone_warning', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    expect((await passkeyLogin(user.authenticator, { signCount: 5 })).status).toBe(200);
    const copied = await passkeyLogin(user.authenticator, { signCount: 3 });
    expect(copied.status).toBe(200);
    const [key] = (await storedKeys(user.id, 'passkey')).credentials;
    expect(key.authenticator).toMatchObject({ sign_count: 5, clone_warning: true });
    expect(portaal.output()).toContain('login.key_clone_warning');
  });
});

describe('identifiers', () => {
  it('moves the security keys’ identifier along with a changed e-mail address', async () => {
    const user = await signedInUser();
    await addSecurityKey(user.browser, user.authenticator);
    const newEmail = `verhuisd-${Date.now()}@voorbeeldstad.nl`;
    const flow = await settingsFlow(user.browser);
    const changed = await submitSettings(user.browser, flow, {
      method: 'profile',
      traits: { email: newEmail, name: { first: 'Test', last: 'Gebruiker' } },
    });
    expect(changed.status, JSON.stringify(changed.body.ui?.messages)).toBe(200);
    const { data } = await admin().getIdentity({ id: user.id, includeCredential: ['webauthn'] });
    expect(data.credentials?.webauthn?.identifiers).toEqual([newEmail]);
  });
});

describe('admin API', () => {
  it('shows both credentials in Kratos’ shape and deletes only the second-factor keys', async () => {
    const user = await signedInUser();
    await addPasskey(user.browser, user.authenticator);
    await addSecurityKey(user.browser, user.authenticator, 'Reservesleutel');
    const { data } = await admin().getIdentity({ id: user.id, includeCredential: ['webauthn', 'passkey'] });
    const webauthn = data.credentials?.webauthn as any;
    expect(webauthn.identifiers).toEqual([user.email]);
    expect(webauthn.config.user_handle).toBe(Buffer.from(user.id.replace(/-/g, ''), 'hex').toString('base64'));
    expect(webauthn.config.credentials[0]).toEqual({
      id: user.authenticator.keys[1]!.id.toString('base64'),
      public_key: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
      attestation_type: 'none',
      authenticator: {
        aaguid: Buffer.from('5e'.repeat(16), 'hex').toString('base64'),
        sign_count: 0,
        clone_warning: false,
      },
      display_name: 'Reservesleutel',
      added_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      is_passwordless: false,
      flags: { user_present: true, user_verified: true, backup_eligible: false, backup_state: false },
      transport: ['usb'],
    });
    const passkey = data.credentials?.passkey as any;
    expect(passkey.identifiers).toEqual([Buffer.from(passkey.config.user_handle, 'base64').toString('utf8')]);

    const refused = await failure(admin().deleteIdentityCredentials({ id: user.id, type: 'passkey' }));
    expect(refused.status).toBe(400);
    expect(refused.body.error.reason).toBe('Credentials type passkey cannot be deleted.');
    await admin().deleteIdentityCredentials({ id: user.id, type: 'webauthn' });
    const after = (await admin().getIdentity({ id: user.id })).data.credentials;
    expect(Object.keys(after ?? {}).sort()).toEqual(['passkey', 'password']);
    const gone = await failure(admin().deleteIdentityCredentials({ id: user.id, type: 'webauthn' }));
    expect(gone.status).toBe(404);
  });
});
