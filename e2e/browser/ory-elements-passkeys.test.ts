import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPasswordIdentity } from '../support/identities.js';
import { identityApi } from '../support/ory.js';
import {
  buildOryElementsHarness,
  type HarnessOrigin,
  openHarnessOrigin,
  oryElementsEnv,
} from '../support/ory-elements.js';
import { addVirtualAuthenticator } from '../support/virtual-authenticator.js';
import { useJourney } from './support/journey.js';

/**
 * Passkeys and security keys with Ory's own React components (`@ory/elements-react`, unmodified, default theme; the
 * page is e2e/ory-elements) on the embedded provider, with Chromium's virtual authenticator answering the WebAuthn
 * ceremonies that the provider's /.well-known/ory/webauthn.js starts
 * (docs/kratos-compatibility.md#passkeys-and-security-keys). Texts are Ory Elements' English defaults.
 */
let harness: HarnessOrigin;
let built: Promise<string>;
// WebAuthn needs a host name as relying party: browsers refuse an IP address. `localhost` reaches the harness'
// loopback listener and, like 127.0.0.1, counts as a secure origin.
let origin = '';
const env: Record<string, string> = {};
beforeAll(async () => {
  harness = await openHarnessOrigin();
  origin = harness.origin.replace('127.0.0.1', 'localhost');
  Object.assign(env, oryElementsEnv(origin));
  built = buildOryElementsHarness();
  built.catch(() => undefined);
});
const journey = useJourney({ env });
beforeAll(async () => {
  harness.serve(await built, journey.portaal.publicUrl);
}, 180_000);
afterAll(async () => {
  await harness?.close();
});

const ui = (screen: string) => `${origin}/ui/${screen}`;
const onScreen = (page: Page, screen: string) => page.waitForURL((url) => url.href.startsWith(ui(screen)));

async function whoami(page: Page) {
  const answer = await page.context().request.get(`${origin}/sessions/whoami`, {
    headers: { accept: 'application/json' },
  });
  return answer.ok() ? await answer.json() : undefined;
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto(ui('login'));
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
}

const section = (page: Page, heading: string) =>
  page.locator('form').filter({ has: page.getByRole('heading', { name: heading, exact: true }) });

async function signOut(page: Page) {
  await page.goto(ui('welcome'));
  await page.getByRole('link', { name: 'Log out' }).click();
  await page.getByText('Not signed in.').waitFor();
}

/** A browser without autofill for passkeys: Chromium's virtual authenticator would answer the autofill request
 * (conditional mediation) by itself, which a person never does, so the journeys press the button instead. */
const withoutPasskeyAutofill = (page: Page) =>
  page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });

describe('passkeys and security keys with Ory Elements', () => {
  it('sign up with a passkey instead of a password, then sign in with it', async () => {
    const page = await journey.person('registreert met passkey');
    const authenticator = await addVirtualAuthenticator(page, { transport: 'internal' });
    await withoutPasskeyAutofill(page);
    const email = `elements-passkey-${Date.now()}@voorbeeldstad.nl`;

    await page.goto(ui('registration'));
    await page.getByRole('heading', { name: 'Register an account' }).waitFor();
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('First Name').fill('Pia');
    await page.getByLabel('Last Name').fill('Passkey');
    await page.getByRole('button', { name: 'Sign up' }).click();
    // Choosing the passkey starts the ceremony at once (Ory Elements calls the node's `oryPasskeyRegistration`).
    await page.getByRole('button', { name: /^Passkey/ }).click();
    await onScreen(page, 'welcome');
    await page.getByText('Not signed in.').waitFor();
    const [credential] = await authenticator.credentials();
    expect(credential?.isResidentCredential).toBe(true);

    await page.goto(ui('login'));
    await page.getByRole('button', { name: 'Sign in with passkey' }).click();
    await onScreen(page, 'welcome');
    await page.getByText(`Signed in as ${email}`).waitFor();
    expect((await whoami(page)).identity.traits.name).toEqual({ first: 'Pia', last: 'Passkey' });
  });

  it('add a passkey in the settings, sign in with it alone, then remove it', async () => {
    const { id, email, password } = await createPasswordIdentity(identityApi(journey.portaal.adminUrl));
    const page = await journey.person('passkey');
    const authenticator = await addVirtualAuthenticator(page, { transport: 'internal' });

    await signInWithPassword(page, email, password);
    await onScreen(page, 'welcome');
    await page.goto(ui('settings'));
    const passkeys = section(page, 'Manage Passkeys');
    await passkeys.getByRole('button', { name: 'Add passkey' }).click();
    await page.getByText('Your changes have been saved!').waitFor();
    const [credential] = await authenticator.credentials();
    expect(credential?.isResidentCredential).toBe(true);
    // Ory's list of passkeys shows each by the hex id the provider gives its remove button.
    await passkeys.getByText(Buffer.from(credential!.credentialId, 'base64').toString('hex')).waitFor();

    await signOut(page);
    await withoutPasskeyAutofill(page);
    await page.goto(ui('login'));
    await page.getByRole('button', { name: 'Sign in with passkey' }).click();
    await onScreen(page, 'welcome');
    await page.getByText(`Signed in as ${email}`).waitFor();
    const session = await whoami(page);
    expect(session.authenticator_assurance_level).toBe('aal1');
    expect(session.authentication_methods.map((m: { method: string }) => m.method)).toEqual(['passkey']);
    const [used] = await authenticator.credentials();
    expect(used!.signCount).toBeGreaterThan(credential!.signCount);

    // The password is still there, so the passkey may go: Ory's remove button (an icon) submits its hex id.
    await page.goto(ui('settings'));
    const hex = Buffer.from(used!.credentialId, 'base64').toString('hex');
    await section(page, 'Manage Passkeys').locator(`button[name="passkey_remove"][value="${hex}"]`).click();
    await page.getByText('Your changes have been saved!').waitFor();
    await expect.poll(() => section(page, 'Manage Passkeys').getByText(hex).count()).toBe(0);
    const { data } = await identityApi(journey.portaal.adminUrl).getIdentity({ id });
    expect(Object.keys(data.credentials ?? {})).toEqual(['password']);
  });

  it('add a security key in the settings, then use it as second factor after the password', async () => {
    const { email, password } = await createPasswordIdentity(identityApi(journey.portaal.adminUrl));
    const page = await journey.person('beveiligingssleutel');
    const authenticator = await addVirtualAuthenticator(page, { transport: 'usb', residentKey: false });

    await signInWithPassword(page, email, password);
    await onScreen(page, 'welcome');
    await page.goto(ui('settings'));
    const keys = section(page, 'Manage Hardware Tokens');
    await keys.getByLabel('Name of the security key').fill('Blauwe sleutel');
    await keys.getByRole('button', { name: 'Add security key' }).click();
    await page.getByText('Your changes have been saved!').waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);
    expect((await whoami(page)).authenticator_assurance_level).toBe('aal2');

    await signOut(page);
    await signInWithPassword(page, email, password);
    await onScreen(page, 'login');
    await page.getByRole('button', { name: 'Continue with hardware key' }).click();
    await onScreen(page, 'welcome');
    await page.getByText(`Signed in as ${email}`).waitFor();
    const session = await whoami(page);
    expect(session.authenticator_assurance_level).toBe('aal2');
    expect(session.authentication_methods.map((m: { method: string }) => m.method)).toEqual(['password', 'webauthn']);
  });
});
