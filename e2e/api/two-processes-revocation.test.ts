import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestDatabase } from '../support/database.js';
import { createPasswordIdentity } from '../support/identities.js';
import { explained, identityApi, newNativeClient } from '../support/ory.js';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { writeTuple } from '../support/portal-users.js';

/**
 * An answer about a session is kept only while the database shows no change at all (docs/architecture.md), so an
 * ended session, a blocked person or a withdrawn membership is refused by every process at once, not after some cache
 * expires: two processes on one database, the change made at one, the very next request at the other, for whoami and
 * for the forward-auth check a proxy makes for every request to a data service. Each answer is asked for several
 * times first, so that the second process keeps it.
 */
let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
let first: Portaal;
let second: Portaal;

beforeAll(async () => {
  database = await sharedTestDatabase();
  const demoCatalogue = new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url);
  const env = { DATABASE_URL: database.url, CATALOGUE_FILE: fileURLToPath(demoCatalogue) };
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
  await membership('PUT', user.id);
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

/** The check nginx makes at the second process for a request to the demo catalogue's 'Wijkmonitor'. */
const forwardAuthAtSecond = (token: string) =>
  fetch(`${second.publicUrl}/api/forward-auth?service=wijkmonitor`, {
    headers: { 'x-session-token': token, accept: 'application/json' },
  });

/** The answers whoami and forward-auth give at the second process, each asked three times. */
async function keptAtSecond(token: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 0; n < 3; n += 1) {
    statuses.push((await whoamiAtSecond(token)).status, (await forwardAuthAtSecond(token)).status);
  }
  return [...new Set(statuses)];
}

/** Membership of De Gemeenten Ondersteund (dego), which asks no second factor and may use 'Wijkmonitor'. */
const membership = (method: 'PUT' | 'DELETE', subjectId: string) =>
  writeTuple(first.adminUrl, method, {
    namespace: 'organizations',
    object: 'dego',
    relation: 'access',
    subject_id: subjectId,
  });

describe('two processes on one database', () => {
  it('refuse a session at the other process on the very next request after it is revoked', async () => {
    const { token, sessionId } = await signedInAtFirst();
    expect(await keptAtSecond(token)).toEqual([200]);
    await identityApi(first.adminUrl).disableSession({ id: sessionId });
    expect((await whoamiAtSecond(token)).status).toBe(401);
    expect((await forwardAuthAtSecond(token)).status).toBe(401);
  });

  it('refuse a blocked person at the other process on the very next request', async () => {
    const { user, token } = await signedInAtFirst();
    expect(await keptAtSecond(token)).toEqual([200]);
    await identityApi(first.adminUrl).patchIdentity({
      id: user.id,
      jsonPatch: [{ op: 'replace', path: '/state', value: 'inactive' }],
    });
    expect((await forwardAuthAtSecond(token)).status).toBe(401);
    expect((await whoamiAtSecond(token)).status).toBe(401);
  });

  it('refuse a session at the other process on the very next request after its logout', async () => {
    const { token } = await signedInAtFirst();
    expect(await keptAtSecond(token)).toEqual([200]);
    await explained(
      newNativeClient(first.publicUrl).performNativeLogout({ performNativeLogoutBody: { session_token: token } }),
    );
    expect((await whoamiAtSecond(token)).status).toBe(401);
    expect((await forwardAuthAtSecond(token)).status).toBe(401);
  });

  it('refuse a data service at the other process on the very next check once the membership ends', async () => {
    const { user, token } = await signedInAtFirst();
    expect(await keptAtSecond(token)).toEqual([200]);
    await membership('DELETE', user.id);
    expect((await forwardAuthAtSecond(token)).status).toBe(403);
    expect((await whoamiAtSecond(token)).status).toBe(200);
  });
});
