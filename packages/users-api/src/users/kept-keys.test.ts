import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemberKey, UserIdentity } from '../ports.js';
import { type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';
import { saveCredential } from '../../../idp/src/identities/identity-repository.js';
import type { ListedUser } from './user-page.js';
import { type Listed, sortEntries } from './user-order.js';
import { factsOf, hasStatus, STATUS_KEYS, type StatusKey } from './user-status.js';

// The overview's kept keys and statuses (users/kept-keys.ts) after changes to people: only those changed are read
// again, and every order and status page is what the whole list gives.

let api: InProcessApi;
let admin: UserIdentity;
/** The organisations and people `membersOf` was asked for, since the last look. */
let asked: { among?: string[] }[];

const orgRelation = (org: string, relation = 'issuer') => ({ namespace: 'organizations', object: org, relation });
const NAMES = ['Zeger', 'anna', 'Bram', 'Émile', 'carla', 'Daan', 'eva', 'Anna', 'jan', 'Jan'];
const ORDERS = ['type', 'name', 'email', 'created'] as const;

beforeEach(async () => {
  api = await inProcessUsersApi();
  admin = await api.person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    orgRelation('voorbeeldstad'),
    orgRelation('voorbeeldstad', 'admin'),
  ]);
  for (const [i, name] of NAMES.entries()) {
    await api.person(`${name.toLowerCase()}${i}@voorbeeldstad.nl`, 'voorbeeldstad', [orgRelation('voorbeeldstad')]);
  }
  const { backend } = api.ctx;
  const membersOf = backend.membersOf!.bind(backend);
  asked = [];
  backend.membersOf = (organisationId: string, among?: string[]): Promise<MemberKey[]> => {
    asked.push({ among });
    return membersOf(organisationId, among);
  };
});

afterEach(() => api.close());

async function pageIds(sort: string): Promise<string[]> {
  const answer = await api.call(admin, 'GET', `/api/users?sort=${sort}&per_page=200`);
  expect(answer.statusCode).toBe(200);
  return (answer.json() as { items: { id: string }[] }).items.map((u) => u.id);
}

async function sortedWholeList(sort: (typeof ORDERS)[number]): Promise<string[]> {
  const whole = (await api.call(admin, 'GET', '/api/users')).json() as Listed[];
  return sortEntries(whole, sort).map((u) => u.id);
}

async function statusPageIds(status: StatusKey): Promise<string[]> {
  const answer = await api.call(admin, 'GET', `/api/users?sort=name&per_page=200&status=${status}`);
  expect(answer.statusCode).toBe(200);
  return (answer.json() as { items: { id: string }[] }).items.map((u) => u.id);
}

async function ofStatusInWholeList(status: StatusKey): Promise<string[]> {
  const whole = (await api.call(admin, 'GET', '/api/users')).json() as ListedUser[];
  return sortEntries(whole, 'name')
    .filter((entry) => hasStatus(factsOf(entry), status))
    .map((u) => u.id);
}

const addFactor = (id: string) =>
  api.db.kysely
    .transaction()
    .execute((trx) =>
      saveCredential(trx, { now: () => new Date() }, id, 'totp', { totp_url: 'otpauth://totp/x?secret=JBSWY3DP' }, []),
    );

const rename = (user: { id: string; traits: { email: string } }, first: string) =>
  api.call(admin, 'PUT', `/api/users/${user.id}`, {
    traits: { email: user.traits.email, name: { first, last: 'Test' } },
  });

describe('the kept keys of an organisation', () => {
  it('read again only the person renamed, and place them where a sort would', async () => {
    for (const sort of ORDERS) await pageIds(sort);
    asked = [];
    const [first] = (await api.call(admin, 'GET', '/api/users?sort=name&per_page=1')).json().items;
    expect(asked).toEqual([]);
    expect((await rename(first, 'Zwaan')).statusCode).toBe(200);
    for (const sort of ORDERS) expect(await pageIds(sort), sort).toEqual(await sortedWholeList(sort));
    expect(asked).toEqual([{ among: [first.id] }]);
  });

  it('stay the whole list through any sequence of changes, by the API and by other writers', async () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (const sort of ORDERS) await pageIds(sort);
    for (const status of STATUS_KEYS) await statusPageIds(status);
    asked = [];
    for (let round = 0; round < 30; round += 1) {
      const people = ((await api.call(admin, 'GET', '/api/users')).json() as ListedUser[]).filter(
        (u) => u.id !== admin.id,
      );
      const someone = people[random(people.length)]!;
      const change = random(7);
      if (change === 0) await rename(someone, NAMES[random(NAMES.length)]!);
      if (change === 1) await api.call(admin, 'DELETE', `/api/users?id=${someone.id}`);
      if (change === 2) {
        await api.person(`nieuw${round}@voorbeeldstad.nl`, 'voorbeeldstad', [orgRelation('voorbeeldstad')]);
      }
      if (change === 3) {
        const admin = { ...orgRelation('voorbeeldstad', 'admin'), subject_id: someone.id };
        const holds = someone.userType.id === 'administrator';
        await api.ctx.backend.relations.patch(holds ? { delete: [admin] } : { insert: [admin] });
      }
      if (change === 4) {
        // Someone of another organisation changes: nobody here moves.
        await api.person(`ander${round}@dijkstad.nl`, 'dijkstad', [orgRelation('dijkstad')]);
      }
      if (change === 5) {
        const blocked = someone.state === 'inactive';
        await api.call(admin, 'PUT', `/api/users/${someone.id}`, { state: blocked ? 'active' : 'inactive' });
      }
      if (change === 6) await addFactor(someone.id);
      for (const sort of ORDERS) {
        expect(await pageIds(sort), `round ${round}, change ${change}, ${sort}`).toEqual(await sortedWholeList(sort));
      }
      for (const status of STATUS_KEYS) {
        expect(await statusPageIds(status), `round ${round}, change ${change}, ${status}`).toEqual(
          await ofStatusInWholeList(status),
        );
      }
    }
    // Each change was placed, none read the organisation again.
    expect(asked.filter((call) => !call.among)).toEqual([]);
  });
});
