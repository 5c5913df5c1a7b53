import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedTestDatabase } from '../support/database.js';
import { uniqueEmail } from '../support/identities.js';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { api, createMember, portaalCommand, signInAtAal2, type Person } from '../support/portal-users.js';

// Two `portaal` processes on one database (a throwaway PostgreSQL database in the PostgreSQL run): a change made in
// 'Programmabeheer' through one is in force at the other within 5 seconds, the catalogue's cache time
// (docs/architecture.md#programme-administration), without a restart.

let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
let first: Portaal;
let second: Portaal;
let staff: Person;

beforeAll(async () => {
  database = await sharedTestDatabase();
  const env = { DATABASE_URL: database.url, SECRETS_COOKIE: randomBytes(32).toString('base64url') };
  first = await startPortaal({ args: ['--demo'], env });
  second = await startPortaal({ env });
  const email = uniqueEmail('programma');
  await createMember(first, { email, password: 'Twee-Processen-Een-Bron-5', org: 'dego' });
  expect((await portaalCommand(first, ['programme-admin', 'add', '--email', email])).status).toBe(0);
  staff = await signInAtAal2(first, email, 'Twee-Processen-Een-Bron-5');
});

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  database?.remove();
});

/** The organisations as the second process lists them, asked through the same session. */
const atSecond = async () =>
  (await api(second, staff.browser, 'GET', '/programme/organisations')).body.organisations as {
    id: string;
    label: string;
    dataRoles: { id: string }[];
  }[];

/** Milliseconds until the second process shows what `seen` looks for, asked every 100 ms for at most 10 s. */
async function untilSeen(seen: (orgs: Awaited<ReturnType<typeof atSecond>>) => boolean): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < 10_000) {
    if (seen(await atSecond())) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Number.POSITIVE_INFINITY;
}

describe('Programmabeheer with two processes on one database', () => {
  it('a new organisation, a new name and a new data role are in force at the other within 5 seconds', async () => {
    const id = `stad-${randomBytes(3).toString('hex')}`;
    await atSecond();
    const created = await api(first, staff.browser, 'POST', '/programme/organisations', {
      id,
      label: 'Gemeente Tweestad',
      requiresAal2: true,
    });
    expect(created.status).toBe(201);
    const added = await untilSeen((orgs) => orgs.some((o) => o.id === id));
    expect(
      (await api(first, staff.browser, 'PATCH', `/programme/organisations/${id}`, { label: 'Tweestad' })).status,
    ).toBe(200);
    const renamed = await untilSeen((orgs) => orgs.some((o) => o.id === id && o.label === 'Tweestad'));
    const role = await api(first, staff.browser, 'POST', `/programme/organisations/${id}/data-roles`, {
      id: 'wonen',
      label: 'Wonen',
    });
    expect(role.status).toBe(201);
    const roleAdded = await untilSeen((orgs) => orgs.some((o) => o.id === id && o.dataRoles.length === 1));
    console.log(`seen at the other process after ${added}, ${renamed} and ${roleAdded} ms`);
    for (const ms of [added, renamed, roleAdded]) expect(ms).toBeLessThanOrEqual(5_000);
  });
});
