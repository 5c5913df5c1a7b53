import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPasswordIdentity, STRONG_PASSWORD, totpCode, uniqueEmail } from '../support/identities.js';
import { attemptLogin, loginWithPassword } from '../support/flows.js';
import { failure, identityApi, newBrowser } from '../support/ory.js';
import {
  buildOryElementsHarness,
  type HarnessOrigin,
  openHarnessOrigin,
  oryElementsEnv,
} from '../support/ory-elements.js';
import { signInAtAal2 } from '../support/portal-users.js';
import { useJourney } from './support/journey.js';

/**
 * Ory's own React components (`@ory/elements-react`, unmodified, default theme; the page is e2e/ory-elements) as the
 * UI of the embedded provider: the provider sends browsers to them through Kratos' UI URL settings, and they speak
 * to it as they speak to Ory Kratos (docs/kratos-compatibility.md). Texts are Ory Elements' English defaults.
 */
let harness: HarnessOrigin;
let built: Promise<string>;
// The provider's settings, filled in before the journey starts it (its hook reads them then): its public URL is the
// harness' origin, which listens first.
const env: Record<string, string> = {};
beforeAll(async () => {
  harness = await openHarnessOrigin();
  Object.assign(env, oryElementsEnv(harness.origin));
  // The page is built while the provider and Chromium start.
  built = buildOryElementsHarness();
  built.catch(() => undefined);
});
const journey = useJourney({ env });
// Building takes Vite seconds of work, more while other journeys run beside it.
beforeAll(async () => {
  harness.serve(await built, journey.portaal.publicUrl);
}, 180_000);
afterAll(async () => {
  await harness?.close();
});

const ui = (screen: string) => `${harness.origin}/ui/${screen}`;
const onScreen = (page: Page, screen: string) => page.waitForURL((url) => url.href.startsWith(ui(screen)));

/** The session of the page's browser profile as `GET /sessions/whoami` answers it. */
async function whoami(page: Page) {
  const answer = await page.context().request.get(`${harness.origin}/sessions/whoami`, {
    headers: { accept: 'application/json' },
  });
  return { status: answer.status(), body: answer.ok() ? await answer.json() : undefined };
}

/** The 6-digit code in the first mail to `email` since `since`. */
async function mailedCode(email: string, since: Date) {
  // A notice of an earlier change (a linked authenticator app) carries no code and may arrive in between.
  const mail = await journey.portaal.mail.waitFor(email, { since, filter: (m) => /\b\d{6}\b/.test(m.text) });
  const code = /\b\d{6}\b/.exec(mail.text)?.[0];
  expect(code, mail.text).toBeDefined();
  return { subject: mail.subject, code: code! };
}

/** Signs in on Ory's login card with e-mail address and password. */
async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto(ui('login'));
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in with password' }).click();
}

/** Answers the second factor on Ory's login card with the authenticator's code. */
async function enterTotpCode(page: Page, secret: string, offsetSteps = 0) {
  await onScreen(page, 'login');
  await page.getByRole('heading', { name: 'Second factor authentication' }).waitFor();
  await page.getByLabel('Authentication code').fill(await totpCode(secret, offsetSteps));
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** A section of Ory's settings page by its heading. */
const section = (page: Page, heading: string) =>
  page.locator('form').filter({ has: page.getByRole('heading', { name: heading, exact: true }) });

/** The application's welcome screen says who is signed in. */
async function expectSignedInAs(page: Page, email: string) {
  await onScreen(page, 'welcome');
  await page.getByText(`Signed in as ${email}`).waitFor();
}

describe("Ory's React components on the embedded provider", () => {
  it('register a person in two steps and verify the address with the mailed code', async () => {
    const page = await journey.person('registreert');
    const email = uniqueEmail('elements');
    const since = new Date();

    await page.goto(ui('registration'));
    await page.getByRole('heading', { name: 'Register an account' }).waitFor();
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('First Name').fill('Eva');
    await page.getByLabel('Last Name').fill('Elements');
    await page.getByRole('button', { name: 'Sign up' }).click();
    // The provider answers the profile with the second step, a password or a passkey to choose from (as Kratos'
    // two-step registration); the address above it leads back to the first step, filled in as it was.
    await page.getByRole('button', { name: /^Password/ }).click();
    await page.getByLabel('Password', { exact: true }).waitFor();
    await page.getByRole('button', { name: email }).click();
    await expect.poll(() => page.getByLabel('First Name').inputValue()).toBe('Eva');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('button', { name: /^Password/ }).click();
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();

    // No session after registration (Kratos without a session hook); a verification code is on its way.
    await onScreen(page, 'welcome');
    await page.getByText('Not signed in.').waitFor();
    expect((await whoami(page)).status).toBe(401);
    expect((await mailedCode(email, since)).subject).toBe('Bevestig je e-mailadres voor het Datavoorzieningen Portaal');

    await page.goto(ui('verification'));
    await page.getByRole('heading', { name: 'Verify your account' }).waitFor();
    await page.getByLabel('Email').fill(email);
    const asked = new Date();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('An email containing a verification code has been sent').waitFor();
    await page.getByLabel('Verification code').fill((await mailedCode(email, asked)).code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('You successfully verified your email address.').waitFor();

    const [identity] = (await identityApi(journey.portaal.adminUrl).listIdentities({ credentialsIdentifier: email }))
      .data;
    expect(identity?.verifiable_addresses?.[0]).toMatchObject({ value: email, verified: true, status: 'completed' });
  });

  it('sign in with the password, link an authenticator app in the settings, then ask for its code', async () => {
    const { email, password } = await createPasswordIdentity(identityApi(journey.portaal.adminUrl));
    const page = await journey.person('koppelt app');

    await signInWithPassword(page, email, password);
    await expectSignedInAs(page, email);
    expect((await whoami(page)).body.authenticator_assurance_level).toBe('aal1');

    await page.getByRole('link', { name: 'Account settings' }).click();
    await onScreen(page, 'settings');
    const app = section(page, 'Authenticator App');
    // The key is shown (in a read-only field under 'Authenticator Secret') for those who cannot scan the QR code.
    const secret = (await app.locator('input[name="totp_secret_key"]').inputValue()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // One step back, so that the sign-in below has a code of its own (a step is accepted once).
    await app.getByLabel('Verify code').fill(await totpCode(secret, -1));
    await app.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved!').waitFor();
    expect((await whoami(page)).body.authenticator_assurance_level).toBe('aal2');

    // Signing out from the account menu of Ory's settings page.
    await page.getByRole('button', { name: 'User Menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await onScreen(page, 'welcome');
    await page.getByText('Not signed in.').waitFor();
    expect((await whoami(page)).status).toBe(401);

    await signInWithPassword(page, email, password);
    await enterTotpCode(page, secret);
    await expectSignedInAs(page, email);
    expect((await whoami(page)).body.authenticator_assurance_level).toBe('aal2');

    await page.getByRole('link', { name: 'Log out' }).click();
    await onScreen(page, 'welcome');
    await page.getByText('Not signed in.').waitFor();
    expect((await whoami(page)).status).toBe(401);
  });

  it('recover an account with the mailed code, ask for the second factor, and take a new password', async () => {
    const { email, password } = await createPasswordIdentity(identityApi(journey.portaal.adminUrl));
    const { secret } = await signInAtAal2(journey.portaal, email, password);
    const newPassword = 'Elementen-Herstel-Brug-77';
    const page = await journey.person('herstelt');

    await page.goto(ui('recovery'));
    await page.getByRole('heading', { name: 'Recover your account' }).waitFor();
    await page.getByLabel('Email').fill(email);
    const asked = new Date();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('An email containing a recovery code has been sent').waitFor();
    await page.getByLabel('Recovery code').fill((await mailedCode(email, asked)).code);
    await page.getByRole('button', { name: 'Continue' }).click();

    // The account has an authenticator: the settings ask for it first, then come back.
    await enterTotpCode(page, secret);
    await onScreen(page, 'settings');
    await page.getByText('You successfully recovered your account.').waitFor();
    const passwordSection = section(page, 'Change Password');
    await passwordSection.getByLabel('Password', { exact: true }).fill(newPassword);
    await passwordSection.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your changes have been saved!').waitFor();
    expect((await whoami(page)).body).toMatchObject({
      authenticator_assurance_level: 'aal2',
      identity: { traits: { email } },
    });

    // The new password opens the account (up to its second step), the old one no longer does.
    const client = () => newBrowser(journey.portaal.publicUrl);
    expect((await loginWithPassword(client(), email, newPassword)).redirectBrowserTo).toContain('aal=aal2');
    expect((await failure(attemptLogin(client(), email, password))).status).toBe(400);
  });
});
