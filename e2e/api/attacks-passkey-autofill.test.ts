import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginFlow, SettingsFlow } from '@ory/client-fetch';
import { startPortaal, type Portaal } from '../support/portaal.js';
import {
  type Browser,
  csrfTokenOf,
  explained,
  identityApi,
  messageIds,
  newBrowser,
  nodeNamed,
} from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { attemptLogin, loginWithPassword } from '../support/flows.js';
import { SoftwareAuthenticator, type SoftwareKey } from '../support/software-authenticator.js';

// The attack of issue 25: a browser holds a passkey that the portal removed, and its autofill (conditional
// mediation) answers with it at once each time the sign-in screen asks. Every answer is refused, and the flow comes
// back with a new challenge: 161 refused sign-ins in 3 seconds, which filled the limit of the client's address and
// locked out everyone behind it (an office behind one NAT address). A refusal of a passkey that no identity has is
// counted once per credential id and address within the window; other refusals count every time
// (docs/security.md#45-brute-force-limits-and-lockout).

const PER_ADDRESS = 10;
const STORM = 5 * PER_ADDRESS;

let portaal: Portaal;
beforeAll(async () => {
  portaal = await startPortaal({ env: { LOGIN_MAX_FAILURES_PER_ADDRESS: String(PER_ADDRESS) } });
});
afterAll(async () => {
  await portaal?.stop();
});

const admin = () => identityApi(portaal.adminUrl);

async function submit(browser: Browser, path: string, flow: { id: string }, body: Record<string, unknown>) {
  const answer = await browser.fetch(`${portaal.publicUrl}/self-service/${path}?flow=${flow.id}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ csrf_token: csrfTokenOf(flow as LoginFlow), ...body }),
  });
  return { status: answer.status, body: (await answer.json()) as any };
}

async function addPasskey(browser: Browser, authenticator: SoftwareAuthenticator) {
  const flow: SettingsFlow = await explained(browser.frontend.createBrowserSettingsFlow({}));
  const options = nodeNamed(flow, 'passkey_create_data').attributes.value;
  const added = await submit(browser, 'settings', flow, {
    method: 'passkey',
    passkey_settings_register: authenticator.create(options),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
}

async function removePasskey(browser: Browser, key: SoftwareKey) {
  const flow: SettingsFlow = await explained(browser.frontend.createBrowserSettingsFlow({}));
  const removed = await submit(browser, 'settings', flow, {
    method: 'passkey',
    passkey_remove: key.id.toString('hex'),
  });
  expect(removed.status, JSON.stringify(removed.body)).toBe(200);
}

/** A person with a password and `count` passkeys, the first of which the portal then removed. */
async function personWithRemovedPasskey(count: number) {
  const person = await createPasswordIdentity(admin());
  const browser = newBrowser(portaal.publicUrl);
  await explained(loginWithPassword(browser, person.email, person.password));
  const authenticator = new SoftwareAuthenticator(portaal.publicUrl);
  for (let n = 0; n < count; n++) await addPasskey(browser, authenticator);
  const removed = authenticator.keys[0]!;
  await removePasskey(browser, removed);
  return { ...person, authenticator, removed };
}

/**
 * What the autofill of one browser does with the removed passkey: answers each new challenge of the same flow at once,
 * `times` times. Answers the message ids of the refusals.
 */
async function autofillStorm(person: Awaited<ReturnType<typeof personWithRemovedPasskey>>, times: number) {
  const browser = newBrowser(portaal.publicUrl);
  let flow: LoginFlow = await explained(browser.frontend.createBrowserLoginFlow({}));
  const refusals = new Set<string>();
  for (let n = 0; n < times; n++) {
    const options = nodeNamed(flow, 'passkey_challenge').attributes.value;
    const answer = await submit(browser, 'login', flow, {
      method: 'passkey',
      passkey_login: person.authenticator.get(options, { key: person.removed }),
    });
    refusals.add(`${answer.status} ${messageIds(answer.body).join(',')}`);
    flow = answer.body;
  }
  return [...refusals];
}

async function signsIn(email: string, password: string) {
  const { session } = await explained(loginWithPassword(newBrowser(portaal.publicUrl), email, password));
  return session?.active === true;
}

describe('a browser whose autofill keeps sending a passkey the portal removed', () => {
  it('counts once, so other people behind the same address still sign in', async () => {
    const bystander = await createPasswordIdentity(admin());
    // Its only passkey removed (the user handle is unknown now: 4000015), and one of two (the handle still names the
    // person, the key is gone: 4000043).
    const alone = await personWithRemovedPasskey(1);
    const oneOfTwo = await personWithRemovedPasskey(2);
    expect(await autofillStorm(alone, STORM)).toEqual(['400 4000015']);
    expect(await autofillStorm(oneOfTwo, STORM)).toEqual(['400 4000043']);
    expect(await signsIn(bystander.email, bystander.password), 'a colleague behind the same address').toBe(true);
    expect(await signsIn(alone.email, alone.password), 'the person with the stale passkey').toBe(true);
    // The passkey the person kept still signs in.
    const browser = newBrowser(portaal.publicUrl);
    const flow: LoginFlow = await explained(browser.frontend.createBrowserLoginFlow({}));
    const kept = await submit(browser, 'login', flow, {
      method: 'passkey',
      passkey_login: oneOfTwo.authenticator.get(nodeNamed(flow, 'passkey_challenge').attributes.value, {
        key: oneOfTwo.authenticator.keys[1],
      }),
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
  });

  // Last in this file: it locks the address of every client of this test.
  it('still counts every different unknown passkey: as many as the limit lock the address', async () => {
    const bystander = await createPasswordIdentity(admin());
    expect(await signsIn(bystander.email, bystander.password)).toBe(true);
    for (let n = 0; n < PER_ADDRESS; n++) {
      const stranger = new SoftwareAuthenticator(portaal.publicUrl);
      stranger.create({ publicKey: { challenge: 'AA', user: { id: `b25iZWtlbmQt${n}`, name: 'x' } } });
      const browser = newBrowser(portaal.publicUrl);
      const flow: LoginFlow = await explained(browser.frontend.createBrowserLoginFlow({}));
      const answer = await submit(browser, 'login', flow, {
        method: 'passkey',
        passkey_login: stranger.get(nodeNamed(flow, 'passkey_challenge').attributes.value),
      });
      // Unknown, and once the address is locked, refused without a look.
      expect([[4000015], [4000043]]).toContainEqual(messageIds(answer.body));
    }
    const refused = await attemptLogin(newBrowser(portaal.publicUrl), bystander.email, bystander.password).then(
      () => 'signed in',
      (error: { response?: Response }) => error.response?.status,
    );
    expect(refused, 'a password sign-in from the locked address').toBe(400);
  });
});
