import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestDatabase } from '../support/database.js';
import { createPasswordIdentity } from '../support/identities.js';
import { explained, identityApi, newNativeClient } from '../support/ory.js';
import { startPortaal, type Portaal } from '../support/portaal.js';

/**
 * Nothing about a session is cached between requests (docs/architecture.md), so an ended session or a blocked person
 * is refused by every process at once, not after some cache expires: two processes on one database, the change made
 * at one, the very next request at the other.
 */
let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
let first: Portaal;
let second: Portaal;

beforeAll(async () => {
  database = await sharedTestDatabase();
  const env = { DATABASE_URL: database.url };
  // One after the other: both migrate the same new database.
  first = await startPortaal({ env });
  second = await startPortaal({ env });
});
afterAll(async () => {
  await first?.stop();
  await second?.stop();
  database?.remove();
});

async function signedInAtFirst() {
  const user = await createPasswordIdentity(identityApi(first.adminUrl));
  const native = newNativeClient(first.publicUrl);
  const flow = await native.createNativeLoginFlow({});
  const done = await explained(
    native.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: 'password', identifier: user.email, password: user.password },
    }),
  );
  return { user, token: done.session_token!, sessionId: done.session.id };
}

const whoamiAtSecond = (token: string) =>
  fetch(`${second.publicUrl}/sessions/whoami`, { headers: { 'x-session-token': token, accept: 'application/json' } });

describe('two processes on one database', () => {
  it('refuse a session at the other process on the very next request after it is revoked', async () => {
    const { token, sessionId } = await signedInAtFirst();
    expect((await whoamiAtSecond(token)).status).toBe(200);
    await identityApi(first.adminUrl).disableSession({ id: sessionId });
    expect((await whoamiAtSecond(token)).status).toBe(401);
  });

  it('refuse a blocked person at the other process on the very next request', async () => {
    const { user, token } = await signedInAtFirst();
    expect((await whoamiAtSecond(token)).status).toBe(200);
    await identityApi(first.adminUrl).patchIdentity({
      id: user.id,
      jsonPatch: [{ op: 'replace', path: '/state', value: 'inactive' }],
    });
    expect((await whoamiAtSecond(token)).status).toBe(401);
  });

  it('refuse a session at the other process on the very next request after its logout', async () => {
    const { token } = await signedInAtFirst();
    expect((await whoamiAtSecond(token)).status).toBe(200);
    await explained(
      newNativeClient(first.publicUrl).performNativeLogout({ performNativeLogoutBody: { session_token: token } }),
    );
    expect((await whoamiAtSecond(token)).status).toBe(401);
  });
});
