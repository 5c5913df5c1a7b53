import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, failure, identityApi, messageIds, newBrowser } from '../support/ory.js';
import { STRONG_PASSWORD, createPasswordIdentity, uniqueEmail } from '../support/identities.js';
import { loginWithPassword, signedInPerson } from '../support/flows.js';

let portaal: Portaal;
let closed: Portaal;
beforeAll(async () => {
  portaal = await startPortaal({ env: { REGISTRATION_ENABLED: 'true' } });
  closed = await startPortaal();
});
afterAll(async () => {
  // Both stop, also when the first reports a fault.
  try {
    await portaal?.stop();
  } finally {
    await closed?.stop();
  }
});

const traits = (email: string) => ({ email, name: { first: 'Nieuwe', last: 'Gebruiker' } });

describe('registration', () => {
  it('creates an identity without a session (it signs in like any other) and sends a verification code', async () => {
    const browser = newBrowser(portaal.publicUrl);
    const flow = await browser.frontend.createBrowserRegistrationFlow({});
    const email = uniqueEmail('nieuw');
    const since = new Date();
    const done = await explained(
      browser.frontend.updateRegistrationFlow({
        flow: flow.id,
        updateRegistrationFlowBody: {
          method: 'password',
          traits: traits(email),
          password: STRONG_PASSWORD,
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(done.identity.traits.email).toBe(email);
    // No session hook (as Kratos' default): the new account signs in like any other.
    expect((await failure(browser.frontend.toSession())).status).toBe(401);
    expect((await loginWithPassword(browser, email, STRONG_PASSWORD)).session?.identity?.id).toBe(done.identity.id);
    const mail = await portaal.mail.waitFor(email, { since });
    expect(mail.subject).toBe('Bevestig je e-mailadres voor het Datavoorzieningen Portaal');
  });

  it('refuses a duplicate e-mail with 4000007 and creates nothing', async () => {
    const identities = identityApi(portaal.adminUrl);
    const existing = await createPasswordIdentity(identities);
    const before = (await identities.listIdentities({ pageSize: 500 })).data.length;
    const browser = newBrowser(portaal.publicUrl);
    const flow = await browser.frontend.createBrowserRegistrationFlow({});
    const { status, body } = await failure(
      browser.frontend.updateRegistrationFlow({
        flow: flow.id,
        updateRegistrationFlowBody: {
          method: 'password',
          traits: traits(existing.email.toUpperCase()),
          password: STRONG_PASSWORD,
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(status).toBe(400);
    expect(messageIds(body)).toEqual([4000007]);
    expect((await identities.listIdentities({ pageSize: 500 })).data.length).toBe(before);
  });

  it('is off by default', async () => {
    const { status } = await failure(newBrowser(closed.publicUrl).frontend.createBrowserRegistrationFlow({}));
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });
});

describe('logout', () => {
  it('ends the session with the logout token', async () => {
    const { browser } = await signedInPerson(portaal);
    const logout = await browser.frontend.createBrowserLogoutFlow({});
    expect(logout.logout_url).toContain('/self-service/logout?token=');
    await browser.frontend.updateLogoutFlow({ token: logout.logout_token });
    expect((await failure(browser.frontend.toSession())).status).toBe(401);
    const cookies = await browser.jar.getCookies(portaal.publicUrl);
    expect(cookies.find((c) => c.key === 'ory_kratos_session')).toBeUndefined();
  });

  it('refuses a logout URL without a session with 401', async () => {
    const { status } = await failure(newBrowser(portaal.publicUrl).frontend.createBrowserLogoutFlow({}));
    expect(status).toBe(401);
  });

  it('lists and revokes the other sessions', async () => {
    const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
    const laptop = newBrowser(portaal.publicUrl);
    const phone = newBrowser(portaal.publicUrl);
    await loginWithPassword(laptop, user.email, user.password);
    await loginWithPassword(phone, user.email, user.password);
    const others = await laptop.frontend.listMySessions({});
    expect(others).toHaveLength(1);
    expect((await laptop.frontend.disableMyOtherSessions()).count).toBe(1);
    expect((await failure(phone.frontend.toSession())).status).toBe(401);
    expect((await laptop.frontend.toSession()).identity?.id).toBe(user.id);
  });
});
