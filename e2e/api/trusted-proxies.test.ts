import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { identityApi, messageIds } from '../support/ory.js';
import { createPasswordIdentity, uniqueEmail } from '../support/identities.js';

// Which client address the per-address sign-in limit counts (docs/security.md#46-which-client-address-counts):
// behind the proxies named in TRUSTED_PROXIES the address their X-Forwarded-For gives, otherwise the TCP peer,
// whatever a request claims. The test process is the proxy here: it connects from the loopback address.

const PER_ADDRESS = 3;

let behindProxy: Portaal;
let direct: Portaal;
beforeAll(async () => {
  const limits = { LOGIN_MAX_FAILURES_PER_ADDRESS: String(PER_ADDRESS), LOGIN_MAX_FAILURES: '50' };
  [behindProxy, direct] = await Promise.all([
    startPortaal({ env: { ...limits, TRUSTED_PROXIES: 'loopback' } }),
    startPortaal({ env: limits }),
  ]);
});
afterAll(async () => {
  await behindProxy?.stop();
  await direct?.stop();
});

/** A password sign-in through an API flow, with the X-Forwarded-For a proxy would send. */
async function signIn(portaal: Portaal, forwardedFor: string, identifier: string, password: string) {
  const headers = { accept: 'application/json', 'x-forwarded-for': forwardedFor };
  const flow = (await (await fetch(`${portaal.publicUrl}/self-service/login/api`, { headers })).json()) as {
    id: string;
  };
  const answer = await fetch(`${portaal.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'password', identifier, password }),
  });
  return { status: answer.status, body: await answer.json() };
}

async function failFrom(portaal: Portaal, forwardedFor: string) {
  for (let i = 0; i < PER_ADDRESS; i += 1) {
    const failed = await signIn(portaal, forwardedFor, uniqueEmail('geraden'), 'Fout-wachtwoord-1');
    expect(messageIds(failed.body)).toEqual([4000006]);
  }
}

describe('behind a trusted proxy', () => {
  it("counts each client by the proxy's X-Forwarded-For, so one client's failures leave the others alone", async () => {
    const user = await createPasswordIdentity(identityApi(behindProxy.adminUrl));
    await failFrom(behindProxy, '203.0.113.7');
    const attacker = await signIn(behindProxy, '203.0.113.7', user.email, user.password);
    expect(attacker.status).toBe(400);
    expect(messageIds(attacker.body)).toEqual([4000006]);
    const colleague = await signIn(behindProxy, '203.0.113.8', user.email, user.password);
    expect(colleague.status).toBe(200);
    expect(colleague.body.session.identity.id).toBe(user.id);
  });

  it('counts the address the proxy saw, not one a client put in front of it', async () => {
    const user = await createPasswordIdentity(identityApi(behindProxy.adminUrl));
    await failFrom(behindProxy, '198.51.100.9');
    // The client sent its own X-Forwarded-For; the proxy appended the address it connected from.
    const forged = await signIn(behindProxy, '198.51.100.200, 198.51.100.9', user.email, user.password);
    expect(messageIds(forged.body)).toEqual([4000006]);
  });
});

describe('without a trusted proxy', () => {
  it('ignores X-Forwarded-For: changing it escapes no limit of the address the request came from', async () => {
    const user = await createPasswordIdentity(identityApi(direct.adminUrl));
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      const failed = await signIn(direct, `203.0.113.${i + 1}`, uniqueEmail('geraden'), 'Fout-wachtwoord-1');
      expect(messageIds(failed.body)).toEqual([4000006]);
    }
    const fresh = await signIn(direct, '203.0.113.99', user.email, user.password);
    expect(messageIds(fresh.body)).toEqual([4000006]);
  });
});
