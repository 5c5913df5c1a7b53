import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWASP_HASHING, startPortaal, type Portaal } from '../support/portaal.js';
import { identityApi } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';

// One hashing slot and a queue of one: a handful of simultaneous sign-ins fills both for a while.
let portaal: Portaal;
let user: { email: string; password: string };
beforeAll(async () => {
  portaal = await startPortaal({ env: { ...OWASP_HASHING, HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '1' } });
  user = await createPasswordIdentity(identityApi(portaal.adminUrl));
});
afterAll(async () => {
  await portaal?.stop();
});

async function newApiFlow(): Promise<Response> {
  return fetch(`${portaal.publicUrl}/self-service/login/api`, { headers: { accept: 'application/json' } });
}

function submit(flowId: string, body: string): Promise<Response> {
  return fetch(`${portaal.publicUrl}/self-service/login?flow=${flowId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body,
  });
}

/** Keeps `workers` sign-ins going at once until `stop` is set, each on a new flow when one can be made. */
async function keepSigningIn(workers: number, signIn: string, state: { stop: boolean; statuses: number[] }) {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!state.stop) {
        const created = await newApiFlow();
        if (created.status !== 200) {
          state.statuses.push(created.status);
          await created.arrayBuffer();
          continue;
        }
        const { id } = (await created.json()) as { id: string };
        const answer = await submit(id, signIn);
        state.statuses.push(answer.status);
        await answer.arrayBuffer();
      }
    }),
  );
}

describe('sign-ins while every hashing slot is busy and the queue is full', () => {
  it('are refused with 503 and Retry-After before a flow is made or a body read; sign-in works after', async () => {
    const signIn = JSON.stringify({ method: 'password', identifier: user.email, password: user.password });
    const { id: spare } = (await (await newApiFlow()).json()) as { id: string };
    const state = { stop: false, statuses: [] as number[] };
    const flood = keepSigningIn(6, signIn, state);
    // Probes while the flood lasts: a new flow, and a body over the 256 KB limit (413 when the hasher has room).
    const creations: Response[] = [];
    const oversized: Response[] = [];
    const until = Date.now() + 20_000;
    while (Date.now() < until && !(creations.some(busy) && oversized.some(busy))) {
      const [creation, large] = await Promise.all([newApiFlow(), submit(spare, 'x'.repeat(300_000))]);
      creations.push(creation);
      oversized.push(large);
      await Promise.all([creation.clone().arrayBuffer(), large.clone().arrayBuffer()]);
    }
    state.stop = true;
    await flood;

    const refusedCreation = creations.find(busy)!;
    expect(refusedCreation, 'a flow asked for while the hasher was full').toBeDefined();
    expect(refusedCreation.headers.get('retry-after')).toBe('2');
    expect(await refusedCreation.json()).toMatchObject({ error: { code: 503 } });
    expect(oversized.some(busy), 'a 300 KB body sent while the hasher was full').toBe(true);
    expect(oversized.every((answer) => answer.status === 413 || answer.status === 503)).toBe(true);
    expect(state.statuses).toContain(200);
    expect(state.statuses).toContain(503);
    expect(state.statuses.every((status) => status === 200 || status === 503)).toBe(true);

    // Once the flood is over, the same person signs in on a new flow.
    const fresh = ((await (await newApiFlow()).json()) as { id: string }).id;
    expect((await submit(fresh, signIn)).status).toBe(200);
  });
});

const busy = (answer: Response) => answer.status === 503;
