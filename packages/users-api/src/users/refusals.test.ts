import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserIdentity } from '../ports.js';
import { type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';
import { saveCredential } from '../../../idp/src/identities/identity-repository.js';

// A refused Users API call changes nothing: the whole stored state (identities, addresses, credentials, sessions,
// mail, tuples, invitations, audit log) is the same before and after, but for the one 'denied' audit entry of a
// refusal the rules audit (docs/architecture.md#writes-that-belong-together). Every call goes through the mounted
// API with Fastify's inject, so that validation, guards and the service all run.

let api: InProcessApi;
let admin: UserIdentity;
let anne: UserIdentity;
let dirk: UserIdentity;
let gast: UserIdentity;

const role = (id: string, org: string) => ({ namespace: 'subdivisions', object: `${id}_${org}`, relation: 'issuer' });
const orgRelation = (org: string, relation = 'issuer') => ({ namespace: 'organizations', object: org, relation });
const names = (user: UserIdentity) => user.traits.name;

/** Gives a person a password credential signed in with their address, as the identity provider stores it. */
async function givePassword(user: UserIdentity) {
  const clock = { now: () => new Date() };
  await api.db.kysely
    .transaction()
    .execute((trx) =>
      saveCredential(trx, clock, user.id, 'password', { hashed_password: '$2a$04$x' }, [user.traits.email]),
    );
}

beforeEach(async () => {
  api = await inProcessUsersApi();
  admin = await api.person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    orgRelation('voorbeeldstad'),
    orgRelation('voorbeeldstad', 'admin'),
  ]);
  anne = await api.person('anne@voorbeeldstad.nl', 'voorbeeldstad', [
    orgRelation('voorbeeldstad'),
    role('ruimte', 'voorbeeldstad'),
  ]);
  dirk = await api.person('dirk@dijkstad.nl', 'dijkstad', [orgRelation('dijkstad'), role('veiligheid', 'dijkstad')]);
  gast = await api.person('gast@dijkstad.nl', 'dijkstad', [
    orgRelation('dijkstad'),
    orgRelation('voorbeeldstad'),
    role('ruimte', 'voorbeeldstad'),
  ]);
  for (const user of [admin, anne, dirk, gast]) await givePassword(user);
});

afterEach(() => api.close());

type Stored = Record<string, unknown[]>;

/** What a refusal added: nothing, but for 'denied' audit entries (answered as their number). */
function deniedEntriesAdded(before: Stored, after: Stored): number {
  const { audit_log: auditBefore = [], ...restBefore } = before;
  const { audit_log: auditAfter = [], ...restAfter } = after;
  expect(restAfter).toEqual(restBefore);
  expect(auditAfter).toEqual(expect.arrayContaining(auditBefore));
  const added = auditAfter.filter((row) => !auditBefore.includes(row));
  for (const row of added) expect(row).toContain('"result":"denied"');
  return added.length;
}

type Method = Parameters<InProcessApi['call']>[1];

/** A refused call: its status and error id, and how many 'denied' entries it added; nothing else may change. */
async function refused(as: UserIdentity, method: Method, url: string, payload?: object) {
  const before = await api.stored();
  const answer = await api.call(as, method, url, payload);
  const denied = deniedEntriesAdded(before, await api.stored());
  return [answer.statusCode, answer.json().error.id, denied];
}

describe('a refused call of the Users API writes nothing', () => {
  it("409: another account's e-mail address, even with a block or a rename beside it", async () => {
    const put = (email: string, extra: object = {}) =>
      refused(admin, 'PUT', `/api/users/${anne.id}`, { traits: { email, name: names(anne) }, ...extra });
    const inUse = [409, 'email_in_use', 0];
    expect(await put(dirk.traits.email)).toEqual(inUse);
    expect(await put(' DIRK@Dijkstad.nl ', { state: 'inactive' })).toEqual(inUse);
    expect(await put(gast.traits.email)).toEqual(inUse);
    const renamed = { email: admin.traits.email, name: { first: 'Ander', last: 'Naam' } };
    expect(await refused(admin, 'PUT', `/api/users/${anne.id}`, { traits: renamed })).toEqual(inUse);
  });

  it('409: the account of a guest, audited as denied', async () => {
    const guest = [409, 'user_in_other_organisation', 1];
    expect(await refused(admin, 'PUT', `/api/users/${gast.id}`, { state: 'inactive' })).toEqual(guest);
    const traits = { email: 'nieuw@dijkstad.nl', name: names(gast) };
    expect(await refused(admin, 'PUT', `/api/users/${gast.id}`, { traits })).toEqual(guest);
    expect(await refused(admin, 'DELETE', `/api/users/${gast.id}/totp`)).toEqual(guest);
  });

  it('404: a person outside the organisation or no one at all', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const notFound = [404, 'user_not_found', 0];
    const traits = { email: 'nieuw@dijkstad.nl', name: names(dirk) };
    for (const id of [dirk.id, unknown]) {
      expect(await refused(admin, 'PUT', `/api/users/${id}`, { traits, state: 'inactive' })).toEqual(notFound);
      expect(await refused(admin, 'DELETE', `/api/users?id=${id}`)).toEqual(notFound);
      expect(await refused(admin, 'DELETE', `/api/users/${id}/totp`)).toEqual(notFound);
      expect(await refused(admin, 'PUT', `/api/permissions/${id}`, [role('ruimte', 'voorbeeldstad')])).toEqual(
        notFound,
      );
      expect(await refused(admin, 'PUT', `/api/users/${id}/permissions`, [role('ruimte', 'voorbeeldstad')])).toEqual(
        notFound,
      );
    }
  });

  it('403: oneself, a permission outside the organisation, a member who is no administrator', async () => {
    const self = [403, 'forbidden_self', 0];
    expect(await refused(admin, 'PUT', `/api/users/${admin.id}`, { state: 'inactive' })).toEqual(self);
    expect(await refused(admin, 'DELETE', `/api/users?id=${admin.id}`)).toEqual(self);
    const demotion = new URLSearchParams({ ...orgRelation('voorbeeldstad', 'admin'), subject_id: admin.id });
    expect(await refused(admin, 'DELETE', `/api/permissions?${demotion}`)).toEqual(self);
    const outside = [403, 'forbidden_permission', 0];
    const permissions = [role('ruimte', 'voorbeeldstad'), role('veiligheid', 'dijkstad')];
    const create = { traits: { email: 'nieuw@voorbeeldstad.nl', name: { first: 'N', last: 'W' } }, permissions };
    expect(await refused(admin, 'POST', '/api/users', create)).toEqual(outside);
    expect(await refused(admin, 'POST', '/api/users', { ...create, traits: { email: dirk.traits.email } })).toEqual(
      outside,
    );
    expect(await refused(admin, 'PUT', `/api/permissions/${anne.id}`, permissions)).toEqual(outside);
    expect(await refused(admin, 'PUT', `/api/users/${anne.id}/permissions`, permissions)).toEqual(outside);
    expect(await refused(anne, 'PUT', `/api/users/${anne.id}/permissions`, [])).toEqual([
      403,
      'forbidden_not_admin',
      1,
    ]);
    const notAdmin = [403, 'forbidden_not_admin', 1];
    expect(await refused(anne, 'PUT', `/api/users/${admin.id}`, { state: 'inactive' })).toEqual(notAdmin);
    expect(await refused(anne, 'DELETE', `/api/users?id=${admin.id}`)).toEqual(notAdmin);
  });

  it('400: input the schemas refuse, and input they pass that the rules refuse', async () => {
    const invalid = [400, 'invalid_request', 0];
    const badAddress = { traits: { email: 'geen-adres', name: names(anne) }, state: 'inactive' };
    expect((await refused(admin, 'PUT', `/api/users/${anne.id}`, badAddress))[0]).toBe(400);
    // A new address without names: the body is valid, a new account needs them.
    expect(await refused(admin, 'POST', '/api/users', { traits: { email: 'zonder@naam.nl' } })).toEqual(invalid);
    const membership = new URLSearchParams({ ...orgRelation('voorbeeldstad'), subject_id: anne.id });
    expect(await refused(admin, 'DELETE', `/api/permissions?${membership}`)).toEqual(invalid);
    expect(await refused(admin, 'PUT', `/api/users/${anne.id}/permissions`, [orgRelation('voorbeeldstad')])).toEqual(
      invalid,
    );
    expect((await refused(admin, 'PUT', `/api/users/${anne.id}/permissions`, { roles: [] }))[0]).toBe(400);
  });
});

describe('the user-visible bug of issue 26', () => {
  it("leaves both people and the overview as they were when a member is given another account's address", async () => {
    const answer = await api.call(admin, 'PUT', `/api/users/${anne.id}`, {
      traits: { email: gast.traits.email, name: names(anne) },
    });
    expect([answer.statusCode, answer.json().error.message]).toEqual([
      409,
      'Er bestaat al een account met dit e-mailadres.',
    ]);
    const overview = (await api.call(admin, 'GET', '/api/users')).json() as { id: string; traits: { email: string } }[];
    const emails = overview.map((u) => u.traits.email);
    expect(emails.filter((e) => e === gast.traits.email)).toHaveLength(1);
    expect(overview.find((u) => u.id === anne.id)?.traits.email).toBe(anne.traits.email);
    // Anne still recovers and signs in with her own address; Gast's stays his.
    expect((await api.ctx.backend.identities.findByEmail(anne.traits.email))?.id).toBe(anne.id);
    expect((await api.ctx.backend.identities.findByEmail(gast.traits.email))?.id).toBe(gast.id);
  });
});

/** A call an administrator or a member may make, on one of the people; some are refused, some accepted. */
const callArbitrary = fc.record({
  as: fc.constantFrom('admin', 'anne'),
  target: fc.constantFrom('admin', 'anne', 'dirk', 'gast', 'nobody'),
  action: fc.oneof(
    fc.record({
      kind: fc.constant('email' as const),
      email: fc.constantFrom(
        'beheerder@voorbeeldstad.nl',
        'anne@voorbeeldstad.nl',
        ' GAST@dijkstad.nl',
        'dirk@dijkstad.nl',
        'nieuw@voorbeeldstad.nl',
        'ander@voorbeeldstad.nl',
        'geen-adres',
      ),
      state: fc.constantFrom(undefined, 'active' as const, 'inactive' as const),
    }),
    fc.record({ kind: fc.constant('state' as const), state: fc.constantFrom('active' as const, 'inactive' as const) }),
    fc.record({ kind: fc.constantFrom('delete' as const, 'reset' as const) }),
    fc.record({
      kind: fc.constant('role' as const),
      add: fc.boolean(),
      role: fc.constantFrom(role('financien', 'voorbeeldstad'), role('veiligheid', 'dijkstad')),
    }),
  ),
});

describe('random sequences of refused and accepted calls', () => {
  it('leave all as it was after each refusal, and the addresses one per account after each success', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(callArbitrary, { minLength: 1, maxLength: 8 }), async (calls) => {
        await api.close();
        api = await inProcessUsersApi();
        const people: Record<string, UserIdentity> = {
          admin: await api.person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
            orgRelation('voorbeeldstad'),
            orgRelation('voorbeeldstad', 'admin'),
          ]),
          anne: await api.person('anne@voorbeeldstad.nl', 'voorbeeldstad', [orgRelation('voorbeeldstad')]),
          dirk: await api.person('dirk@dijkstad.nl', 'dijkstad', [orgRelation('dijkstad')]),
          gast: await api.person('gast@dijkstad.nl', 'dijkstad', [
            orgRelation('dijkstad'),
            orgRelation('voorbeeldstad'),
          ]),
        };
        for (const user of Object.values(people)) await givePassword(user);
        for (const { as, target, action } of calls) {
          const id = people[target]?.id ?? '00000000-0000-4000-8000-000000000000';
          const [current] = await api.ctx.backend.identities.get([id]);
          const before = await api.stored();
          const answer = await (() => {
            const caller = people[as]!;
            switch (action.kind) {
              case 'email':
                return api.call(caller, 'PUT', `/api/users/${id}`, {
                  traits: { email: action.email, name: current?.traits.name ?? { first: 'A', last: 'B' } },
                  ...(action.state ? { state: action.state } : {}),
                });
              case 'state':
                return api.call(caller, 'PUT', `/api/users/${id}`, { state: action.state });
              case 'delete':
                return api.call(caller, 'DELETE', `/api/users?id=${id}`);
              case 'reset':
                return api.call(caller, 'DELETE', `/api/users/${id}/totp`);
              case 'role':
                return action.add
                  ? api.call(caller, 'PUT', `/api/permissions/${id}`, [action.role])
                  : api.call(
                      caller,
                      'DELETE',
                      `/api/permissions?${new URLSearchParams({ ...action.role, subject_id: id })}`,
                    );
            }
          })();
          const after = await api.stored();
          if (answer.statusCode >= 400) {
            deniedEntriesAdded(before, after);
            continue;
          }
          // Accepted: one audit entry more (none for a call that changes nothing, which writes nothing), and every
          // address belongs to one account, traits and addresses alike.
          if (after.audit_log!.length === before.audit_log!.length) expect(after).toEqual(before);
          else expect(after.audit_log!.length).toBe(before.audit_log!.length + 1);
          const everyone = await api.ctx.backend.identities.get(Object.values(people).map((p) => p.id));
          const emails = everyone.map((u) => u.traits.email);
          expect(new Set(emails).size).toBe(emails.length);
          for (const user of everyone)
            expect((await api.ctx.backend.identities.findByEmail(user.traits.email))?.id).toBe(user.id);
        }
      }),
      { numRuns: 30 },
    );
    // Thirty in-process instances, each made and filled anew: 3.6 s in a CI run, near the unit tests' default 5 s.
  }, 30_000);
});
