import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '@portaal/idp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiContext } from '../context.js';
import type { UserIdentity } from '../ports.js';
import {
  CALLER_HEADER,
  type InProcessApi,
  inProcessUsersApi,
  METHODS_HEADER,
  refusal,
} from '../test-support/in-process-api.js';
import {
  addPermissions,
  createUser,
  deleteUser,
  endSessions,
  removePermission,
  resetSecondFactor,
  unlockUser,
  updateUser,
  type Acting,
} from './user-service.js';

// In-process tests of the administrators' rules (docs/organisations.md): the embedded backend on an in-memory SQLite
// database with the demo catalogue, the service called directly, and a few calls through the mounted Users API with
// Fastify's inject (test-support/in-process-api.ts).

const request = { ip: '192.0.2.7' };

let api: InProcessApi;
let db: Db;
let ctx: ApiContext;
let app: FastifyInstance;
let publicUrl: URL;
/** The administrator of Voorbeeldstad, whose home it is. */
let admin: UserIdentity;
/** A member of Voorbeeldstad only. */
let anne: UserIdentity;
/** A member of Dijkstad only. */
let dirk: UserIdentity;
/** Home in Dijkstad, a guest in Voorbeeldstad. */
let gast: UserIdentity;

const role = (id: string, org: string) => ({ namespace: 'subdivisions', object: `${id}_${org}`, relation: 'issuer' });
const orgRelation = (org: string, relation = 'issuer') => ({ namespace: 'organizations', object: org, relation });

const person: InProcessApi['person'] = (...args) => api.person(...args);
const acting = (user: UserIdentity): Promise<Acting> => api.acting(user, request);

/** Gives a person a credential of a type as the identity provider stores it (the Users API only reads its type). */
async function giveCredential(user: UserIdentity, type: string, config: object = {}) {
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('identity_credentials' as never)
    .values({
      id: crypto.randomUUID(),
      identity_id: user.id,
      type,
      config: JSON.stringify(config),
      version: 0,
      revision: 0,
      last_used_step: null,
      created_at: now,
      updated_at: now,
    } as never)
    .execute();
}

const tuplesOf = (user: UserIdentity) => ctx.backend.relations.list({ subject_id: user.id });
const identityOf = async (user: UserIdentity) => (await ctx.backend.identities.get([user.id]))[0];
const auditOn = async (user: UserIdentity) => (await ctx.audit.about(user.id)).filter((e) => e.objectId === user.id);
const mailCount = async () =>
  Number(
    (
      await db.kysely
        .selectFrom('courier_messages' as never)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n ?? 0,
  );

beforeEach(async () => {
  api = await inProcessUsersApi();
  ({ db, ctx, app, publicUrl } = api);
  admin = await person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    orgRelation('voorbeeldstad'),
    orgRelation('voorbeeldstad', 'admin'),
  ]);
  anne = await person('anne@voorbeeldstad.nl', 'voorbeeldstad', [
    orgRelation('voorbeeldstad'),
    role('ruimte', 'voorbeeldstad'),
  ]);
  dirk = await person('dirk@dijkstad.nl', 'dijkstad', [orgRelation('dijkstad'), role('veiligheid', 'dijkstad')]);
  gast = await person('gast@dijkstad.nl', 'dijkstad', [
    orgRelation('dijkstad'),
    orgRelation('voorbeeldstad'),
    role('ruimte', 'voorbeeldstad'),
  ]);
});

afterEach(() => api.close());

describe('who may act on whom', () => {
  it('refuses every action on a person of another organisation by id, as unknown (404), writing nothing', async () => {
    const as = await acting(admin);
    const before = { identity: await identityOf(dirk), tuples: await tuplesOf(dirk) };
    const calls = [
      () => updateUser(ctx, as, dirk.id, { state: 'inactive' }),
      () => updateUser(ctx, as, dirk.id, { traits: { email: 'ander@dijkstad.nl', name: { first: 'A', last: 'B' } } }),
      () => deleteUser(ctx, as, dirk.id),
      () => resetSecondFactor(ctx, as, dirk.id),
      () => endSessions(ctx, as, dirk.id),
      () => unlockUser(ctx, as, dirk.id),
      () => addPermissions(ctx, as, dirk.id, [orgRelation('voorbeeldstad', 'admin')]),
      () => removePermission(ctx, as, { ...role('veiligheid', 'voorbeeldstad'), subject_id: dirk.id }),
    ];
    for (const call of calls) expect((await refusal(call())).id).toBe('user_not_found');
    expect(await identityOf(dirk)).toEqual(before.identity);
    expect(await tuplesOf(dirk)).toEqual(before.tuples);
    expect(await auditOn(dirk)).toEqual([]);
  });

  it('refuses an administrator blocking, deleting or demoting themselves (403), writing nothing', async () => {
    const as = await acting(admin);
    const tuples = await tuplesOf(admin);
    expect((await refusal(updateUser(ctx, as, admin.id, { state: 'inactive' }))).id).toBe('forbidden_self');
    expect((await refusal(deleteUser(ctx, as, admin.id))).id).toBe('forbidden_self');
    const demotion = { ...orgRelation('voorbeeldstad', 'admin'), subject_id: admin.id };
    expect((await refusal(removePermission(ctx, as, demotion))).code).toBe(403);
    expect((await identityOf(admin))?.state).toBe('active');
    expect(await tuplesOf(admin)).toEqual(tuples);
    // Renaming oneself is no block: it passes.
    const renamed = await updateUser(ctx, as, admin.id, {
      traits: { email: admin.traits.email, name: { first: 'Bea', last: 'Heerder' } },
    });
    expect(renamed.traits.name.first).toBe('Bea');
  });

  it('lets the home organisation change the account: block, unblock, rename, each audited as what it was', async () => {
    const as = await acting(admin);
    expect((await updateUser(ctx, as, anne.id, { state: 'inactive' })).state).toBe('inactive');
    expect((await updateUser(ctx, as, anne.id, { state: 'active' })).state).toBe('active');
    const traits = { email: 'anne.de.vries@voorbeeldstad.nl', name: { first: 'Anne', last: 'de Vries' } };
    expect(await updateUser(ctx, as, anne.id, { traits })).toMatchObject({ traits, home: true });
    // Entries of the same millisecond come back in no fixed order (the audit log orders by time, then a random id).
    const changes = (await auditOn(anne)).map((e) => [
      e.action,
      e.result,
      e.organisationId,
      e.actorId,
      e.clientAddress,
    ]);
    expect(changes).toHaveLength(3);
    expect(changes).toEqual(
      expect.arrayContaining([
        ['user.block', 'success', 'voorbeeldstad', admin.id, '192.0.2.7'],
        ['user.unblock', 'success', 'voorbeeldstad', admin.id, '192.0.2.7'],
        ['user.update', 'success', 'voorbeeldstad', admin.id, '192.0.2.7'],
      ]),
    );
    expect(await resetSecondFactor(ctx, as, anne.id)).toBeUndefined();
    expect(await endSessions(ctx, as, anne.id)).toBeUndefined();
    expect(await unlockUser(ctx, as, anne.id)).toBeUndefined();
  });
});

describe('a guest organisation', () => {
  it('may not change the account itself (409), each refusal audited and nothing written', async () => {
    const as = await acting(admin);
    const before = await identityOf(gast);
    const traits = { email: gast.traits.email, name: { first: 'Ander', last: 'Naam' } };
    const calls: [string, () => Promise<unknown>][] = [
      ['user.update', () => updateUser(ctx, as, gast.id, { state: 'inactive' })],
      ['user.update', () => updateUser(ctx, as, gast.id, { traits })],
      ['user.reset_2fa', () => resetSecondFactor(ctx, as, gast.id)],
      ['user.end_sessions', () => endSessions(ctx, as, gast.id)],
      ['user.unlock', () => unlockUser(ctx, as, gast.id)],
    ];
    for (const [, call] of calls) {
      const error = await refusal(call());
      expect([error.code, error.id]).toEqual([409, 'user_in_other_organisation']);
    }
    expect(await identityOf(gast)).toEqual(before);
    expect(await mailCount()).toBe(0);
    const entries = await auditOn(gast);
    // One entry per refusal; entries of the same millisecond come back in no fixed order.
    expect(entries.map((e) => e.action).sort()).toEqual(calls.map(([action]) => action).sort());
    for (const entry of entries)
      expect(entry).toMatchObject({
        result: 'denied',
        organisationId: 'voorbeeldstad',
        actorId: admin.id,
        objectEmail: gast.traits.email,
        details: { reason: 'not the home organisation' },
      });
  });

  it('passes a request that changes nothing, and sees the guest without credentials', async () => {
    const as = await acting(admin);
    const same = await updateUser(ctx, as, gast.id, { state: 'active', traits: gast.traits });
    expect(same).toMatchObject({ id: gast.id, home: false, credentials: [] });
    expect(await auditOn(gast)).toEqual([]);
  });

  it('changes its own data roles and removes the person from itself only: the account and its home stay', async () => {
    const as = await acting(admin);
    const permissions = await addPermissions(ctx, as, gast.id, [role('financien', 'voorbeeldstad')]);
    expect(permissions.map((p) => p.object).sort()).toEqual([
      'financien_voorbeeldstad',
      'ruimte_voorbeeldstad',
      'voorbeeldstad',
    ]);
    await deleteUser(ctx, as, gast.id);
    expect((await identityOf(gast))?.organisationRecord.home).toBe('dijkstad');
    expect((await tuplesOf(gast)).map((t) => t.object).sort()).toEqual(['dijkstad']);
    const entries = (await auditOn(gast)).map((e) => [e.action, e.details]);
    expect(entries).toHaveLength(2);
    expect(entries).toEqual(
      expect.arrayContaining([
        ['permissions.add', { relations: ['subdivisions:financien_voorbeeldstad#issuer'] }],
        ['user.remove_from_organisation', { home: 'dijkstad' }],
      ]),
    );
  });
});

describe('permissions', () => {
  it('outside the organisation refuse the whole request (403) before anything is written', async () => {
    const as = await acting(admin);
    const outside = [
      [role('veiligheid', 'dijkstad')],
      [orgRelation('dijkstad', 'admin')],
      [role('bestaat-niet', 'voorbeeldstad')],
      [{ ...orgRelation('voorbeeldstad'), relation: 'access' }],
    ];
    for (const permissions of outside) {
      const create = createUser(ctx, as, {
        traits: { email: 'nieuw@voorbeeldstad.nl', name: { first: 'N', last: 'W' } },
        permissions,
      });
      expect((await refusal(create)).id).toBe('forbidden_permission');
      expect((await refusal(createUser(ctx, as, { traits: { email: dirk.traits.email }, permissions }))).id).toBe(
        'forbidden_permission',
      );
      expect(
        (await refusal(addPermissions(ctx, as, anne.id, [role('ruimte', 'voorbeeldstad'), ...permissions]))).id,
      ).toBe('forbidden_permission');
    }
    expect(await ctx.backend.identities.findByEmail('nieuw@voorbeeldstad.nl')).toBeUndefined();
    expect(await ctx.invitations.ofIdentity(dirk.id)).toEqual([]);
    expect((await tuplesOf(anne)).map((t) => t.object).sort()).toEqual(['ruimte_voorbeeldstad', 'voorbeeldstad']);
    const removal = { ...role('veiligheid', 'dijkstad'), subject_id: dirk.id };
    expect((await refusal(removePermission(ctx, as, removal))).id).toBe('forbidden_permission');
    expect(
      (await refusal(removePermission(ctx, as, { ...orgRelation('voorbeeldstad'), subject_id: anne.id }))).id,
    ).toBe('invalid_request');
    expect(await tuplesOf(dirk)).toHaveLength(2);
    expect(await mailCount()).toBe(0);
    expect((await ctx.audit.list('voorbeeldstad', { size: 10 })).length).toBe(0);
  });
});

describe('the new-user form', () => {
  it('makes an account with its home here, adds to a member, invites anyone else without tuples', async () => {
    const as = await acting(admin);
    const permissions = [role('financien', 'voorbeeldstad')];
    const traits = { email: 'nieuw@voorbeeldstad.nl', name: { first: 'Nina', last: 'Nieuw' } };
    expect(await createUser(ctx, as, { traits, permissions })).toEqual({ kind: 'created' });
    const created = (await ctx.backend.identities.findByEmail(traits.email))!;
    expect(created.organisationRecord.home).toBe('voorbeeldstad');
    expect((await tuplesOf(created)).map((t) => t.object).sort()).toEqual(['financien_voorbeeldstad', 'voorbeeldstad']);
    expect(await createUser(ctx, as, { traits: { email: anne.traits.email }, permissions })).toEqual({ kind: 'added' });
    const invited = await createUser(ctx, as, { traits: { email: dirk.traits.email }, permissions });
    expect(invited).toMatchObject({ kind: 'invited', invitation: { id: expect.any(String) } });
    expect((await tuplesOf(dirk)).map((t) => t.object).sort()).toEqual(['dijkstad', 'veiligheid_dijkstad']);
    expect((await ctx.invitations.ofIdentity(dirk.id)).map((i) => i.organisationId)).toEqual(['voorbeeldstad']);
    // The new account's invitation, a fresh one for Anne (who never followed hers), and Dirk's to join.
    expect(await mailCount()).toBe(3);
    expect((await refusal(createUser(ctx, as, { traits: { email: 'zonder@naam.nl' }, permissions }))).id).toBe(
      'invalid_request',
    );
  });
});

describe('the routes', () => {
  const call: InProcessApi['call'] = (...args) => api.call(...args);

  it('answer refusals in the envelope, with the status of the rule', async () => {
    const guest = await call(admin, 'PUT', `/api/users/${gast.id}`, { state: 'inactive' });
    expect(guest.statusCode).toBe(409);
    expect(guest.json()).toEqual({
      error: {
        id: 'user_in_other_organisation',
        code: 409,
        status: 'Conflict',
        reason: 'Only the home organisation of the user changes the account itself.',
        message: expect.stringContaining('Deze gebruiker hoort bij een andere organisatie.'),
      },
    });
    expect((await call(admin, 'DELETE', `/api/users?id=${admin.id}`)).json().error.id).toBe('forbidden_self');
    expect((await call(admin, 'DELETE', `/api/users?id=${dirk.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/api/users/${dirk.id.toUpperCase()}/totp`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', '/api/users/niet-een-id/totp')).json().error.id).toBe('user_not_found');
    const query = { namespace: 'organizations', object: 'voorbeeldstad', relation: 'admin', subject_id: admin.id };
    const removal = `/api/permissions?${new URLSearchParams(query)}`;
    expect((await call(admin, 'DELETE', removal)).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', '/api/permissions?namespace=organizations')).statusCode).toBe(400);
    const outside = await call(admin, 'POST', '/api/users', {
      traits: { email: 'nieuw@voorbeeldstad.nl', name: { first: 'N', last: 'W' } },
      permissions: [role('veiligheid', 'dijkstad')],
    });
    expect([outside.statusCode, outside.json().error.id]).toEqual([403, 'forbidden_permission']);
  });

  it('answer the new-user form with 201, 200 or 202, and a member with 200', async () => {
    const traits = { email: 'nieuw@voorbeeldstad.nl', name: { first: 'Nina', last: 'Nieuw' } };
    const created = await call(admin, 'POST', '/api/users', { traits, permissions: [] });
    expect([created.statusCode, created.json()]).toEqual([201, true]);
    const added = await call(admin, 'POST', '/api/users', { traits: { email: anne.traits.email } });
    expect([added.statusCode, added.json()]).toEqual([200, true]);
    const invited = await call(admin, 'POST', '/api/users', { traits: { email: dirk.traits.email } });
    expect(invited.statusCode).toBe(202);
    expect(Object.keys(invited.json().invitation)).toEqual(['id', 'expiresAt']);
    expect((await call(admin, 'HEAD', `/api/users?email=${anne.traits.email}`)).statusCode).toBe(200);
    expect((await call(admin, 'HEAD', '/api/users?email=niemand@voorbeeldstad.nl')).statusCode).toBe(404);
    expect((await call(admin, 'HEAD', '/api/users?email=x&extra=1')).statusCode).toBe(400);
    const list = await call(admin, 'GET', `/api/users?email=${encodeURIComponent(' Anne@Voorbeeldstad.nl ')}`);
    expect(list.json().map((u: UserIdentity) => u.id)).toEqual([anne.id]);
    const renamed = await call(admin, 'PUT', `/api/users/${anne.id}`, {
      traits: { email: anne.traits.email, name: { first: 'Anne', last: 'Anders' } },
    });
    expect([renamed.statusCode, renamed.json().traits.name.last, renamed.json().home]).toEqual([200, 'Anders', true]);
  });

  it('list members as their organisation may see them, and invited people, in one answer', async () => {
    await createUser(ctx, await acting(admin), {
      traits: { email: dirk.traits.email },
      permissions: [role('ruimte', 'voorbeeldstad')],
    });
    // Someone else's lock in force: the list then reads the accounts' locks too.
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('throttles')
      .values({
        key: 'users-api:test',
        failures: 10,
        window_started_at: now,
        locked_until: new Date(Date.now() + 60_000).toISOString(),
        updated_at: now,
      })
      .execute();
    const list = await call(admin, 'GET', '/api/users');
    expect(list.statusCode).toBe(200);
    const byEmail = new Map(list.json().map((u: { traits: { email: string } }) => [u.traits.email, u]));
    expect([...byEmail.keys()].sort()).toEqual([admin, anne, dirk, gast].map((u) => u.traits.email).sort());
    const ruimte = { namespace: 'subdivisions', object: 'ruimte_voorbeeldstad', relation: 'issuer' };
    expect(byEmail.get(anne.traits.email)).toEqual({
      id: anne.id,
      schema_id: 'default',
      state: 'active',
      traits: anne.traits,
      created_at: anne.created_at,
      credentials: [],
      factors: [],
      verified: false,
      permissions: [
        { ...orgRelation('voorbeeldstad'), subject_id: anne.id, label: 'Gemeente Voorbeeldstad' },
        { ...ruimte, subject_id: anne.id, label: 'Ruimte en wonen', roleId: 'ruimte' },
      ],
      userType: { id: 'analyst', label: 'Medewerker' },
      home: true,
      lastSignInAt: null,
    });
    expect(byEmail.get(admin.traits.email)).toMatchObject({ userType: { id: 'administrator' }, home: true });
    expect(byEmail.get(gast.traits.email)).toMatchObject({ home: false, credentials: [], lastSignInAt: null });
    expect(byEmail.get(dirk.traits.email)).toMatchObject({
      home: false,
      credentials: [],
      permissions: [
        { ...orgRelation('voorbeeldstad'), subject_id: dirk.id },
        { ...ruimte, subject_id: dirk.id, roleId: 'ruimte' },
      ],
      invitation: { id: expect.any(String), expiresAt: expect.any(String) },
    });
    expect(byEmail.get(dirk.traits.email)).not.toHaveProperty('lastSignInAt');
  });

  // A lock says when someone failed to sign in: the home organisation's business, which it may lift. A guest
  // organisation, or one that invited the person, sees no lock, as it sees no credentials (docs/organisations.md).
  it('show a lock to the home organisation only, not to a guest or inviting organisation', async () => {
    await createUser(ctx, await acting(admin), { traits: { email: dirk.traits.email }, permissions: [] });
    const until = new Date(Date.now() + 60_000).toISOString();
    const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
    const now = new Date().toISOString();
    const locks = [
      `login:id:${sha256(anne.traits.email)}`,
      `login:id:${sha256(gast.traits.email)}`,
      `second_factor:id:${sha256(dirk.id)}`,
    ];
    await db.kysely
      .insertInto('throttles')
      .values(locks.map((key) => ({ key, failures: 10, window_started_at: now, locked_until: until, updated_at: now })))
      .execute();
    const list = (await call(admin, 'GET', '/api/users')).json() as { id: string; lockedUntil?: string }[];
    const lockOf = (user: UserIdentity) => list.find((u) => u.id === user.id)?.lockedUntil ?? 'no lock shown';
    expect(lockOf(anne), 'a member of the home organisation').toBe(until);
    expect(lockOf(gast), 'a guest whose home is Dijkstad').toBe('no lock shown');
    expect(lockOf(dirk), 'a person Voorbeeldstad invited').toBe('no lock shown');
    const dijkstadAdmin = await person('beheerder@dijkstad.nl', 'dijkstad', [
      orgRelation('dijkstad'),
      orgRelation('dijkstad', 'admin'),
    ]);
    const home = (await call(dijkstadAdmin, 'GET', '/api/users')).json() as { id: string; lockedUntil?: string }[];
    expect(home.find((u) => u.id === gast.id)?.lockedUntil, 'gast in their home organisation').toBe(until);
    expect(home.find((u) => u.id === dirk.id)?.lockedUntil, 'dirk in his home organisation').toBe(until);
  });

  // Twelve submits of the new-user form for one address mailed the person twelve times
  // (docs/security.md#49-no-mail-bombing).
  it('mail one address at most three times in 15 minutes, then answer 429 and write nothing', async () => {
    const traits = { email: 'nina@voorbeeldstad.nl', name: { first: 'Nina', last: 'Nieuw' } };
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await call(admin, 'POST', '/api/users', { traits })).statusCode);
    expect(statuses).toEqual([201, 200, 200]);
    expect(await mailCount()).toBe(3);
    const nina = (await call(admin, 'GET', `/api/users?email=${traits.email}`)).json()[0] as UserIdentity;
    const before = await tuplesOf(nina);
    const refused = await call(admin, 'POST', '/api/users', { traits, permissions: [role('ruimte', 'voorbeeldstad')] });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect(refused.json()).toEqual({
      error: {
        id: 'mail_throttled_recipient',
        code: 429,
        status: 'Too Many Requests',
        reason: 'Mails were sent to this address just now.',
        message: 'Er zijn net al berichten naar dit e-mailadres gestuurd. Probeer het over een paar minuten opnieuw.',
      },
    });
    expect(await mailCount()).toBe(3);
    expect(await tuplesOf(nina), 'the data role of the refused submit').toEqual(before);
    // An invitation to join and a 2FA reset are mails to the person too.
    for (let n = 0; n < 3; n++) await createUser(ctx, await acting(admin), { traits: dirk.traits, permissions: [] });
    const invited = await call(admin, 'POST', '/api/users', { traits: { email: dirk.traits.email } });
    expect([invited.statusCode, invited.json().error.id]).toEqual([429, 'mail_throttled_recipient']);
    await giveCredential(anne, 'totp');
    for (let n = 0; n < 3; n++) await resetSecondFactor(ctx, await acting(admin), anne.id);
    await giveCredential(anne, 'totp');
    const reset = await call(admin, 'DELETE', `/api/users/${anne.id}/totp`);
    expect([reset.statusCode, reset.json().error.id]).toEqual([429, 'mail_throttled_recipient']);
    expect((await identityOf(anne))?.credentials, 'the app of a refused reset').toContain('totp');
  });

  it('refuse a member who is no administrator (403), audited', async () => {
    const refused = await call(anne, 'DELETE', `/api/users?id=${admin.id}`);
    expect([refused.statusCode, refused.json().error.id]).toEqual([403, 'forbidden_not_admin']);
    expect((await identityOf(admin))?.state).toBe('active');
    const [entry] = await ctx.audit.list('voorbeeldstad', { size: 10 });
    expect(entry).toMatchObject({ action: 'user.delete', actorId: anne.id, result: 'denied', objectId: null });
  });

  it('accept a passkey or security key sign-in where a second factor is required, not a password', async () => {
    const as = (methods: string) => ({ [CALLER_HEADER]: anne.id, [METHODS_HEADER]: methods });
    const whoami = (methods: string) => app.inject({ method: 'GET', url: '/api/services', headers: as(methods) });
    for (const methods of ['passkey', 'password,webauthn', 'password,totp'])
      expect([methods, (await whoami(methods)).statusCode]).toEqual([methods, 200]);
    const refused = await whoami('password');
    expect([refused.statusCode, refused.json().error.id]).toEqual([403, 'session_aal2_required']);
    const me = await app.inject({ method: 'GET', url: '/api/users/whoami', headers: as('passkey') });
    expect(me.json()).toMatchObject({
      authenticator_assurance_level: 'aal1',
      authentication_methods: ['passkey'],
      aal2Required: true,
      secondFactorMet: true,
    });
  });
});

describe('security keys and passkeys', () => {
  it('show in the overview as kinds of factor, for the home organisation only', async () => {
    for (const type of ['password', 'totp', 'lookup_secret', 'webauthn', 'passkey']) await giveCredential(anne, type);
    await giveCredential(gast, 'webauthn');
    const list = await app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { [CALLER_HEADER]: admin.id, origin: publicUrl.origin },
    });
    const byEmail = new Map(list.json().map((u: { traits: { email: string } }) => [u.traits.email, u]));
    expect(byEmail.get(anne.traits.email)).toMatchObject({
      factors: ['app', 'backup_codes', 'security_key', 'passkey'],
    });
    expect(byEmail.get(admin.traits.email)).toMatchObject({ factors: [] });
    expect(byEmail.get(gast.traits.email)).toMatchObject({ credentials: [], factors: [] });
  });

  it("'Reset 2FA' removes the app, backup codes and security keys but not passkeys, and audits what went", async () => {
    for (const type of ['password', 'totp', 'lookup_secret', 'passkey']) await giveCredential(anne, type);
    const key = (id: string, passwordless: boolean) => ({
      id: Buffer.from(id).toString('base64'),
      public_key: 'cHVibGlj',
      display_name: id,
      is_passwordless: passwordless,
    });
    await giveCredential(anne, 'webauthn', { credentials: [key('second', false)], user_handle: 'dQ==' });
    await giveCredential(gast, 'webauthn', { credentials: [key('x', false)], user_handle: 'dQ==' });
    await resetSecondFactor(ctx, await acting(admin), anne.id);
    expect((await identityOf(anne))?.credentials).toEqual(['passkey', 'password']);
    // Only this person's keys went.
    expect((await identityOf(gast))?.credentials).toContain('webauthn');
    const [entry] = (await auditOn(anne)).filter((e) => e.action === 'user.reset_2fa');
    expect(entry).toMatchObject({
      result: 'success',
      details: { removed: ['app', 'backup_codes', 'security_key'] },
    });
    expect(await mailCount()).toBe(1);
  });

  it('lists the person their own keys, synced or not, also before the second step, never the public key', async () => {
    const key = (id: string, name: string, synced: boolean) => ({
      id: Buffer.from(id).toString('base64'),
      public_key: 'cHVibGlj',
      display_name: name,
      added_at: '2026-11-01T10:00:00Z',
      flags: { backup_eligible: synced, backup_state: synced },
    });
    await giveCredential(anne, 'webauthn', { credentials: [key('key-1', 'YubiKey', false)], user_handle: 'dQ==' });
    await giveCredential(anne, 'passkey', { credentials: [key('key-2', 'anne', true)], user_handle: 'dQ==' });
    await giveCredential(admin, 'passkey', { credentials: [key('key-3', 'bea', true)], user_handle: 'dQ==' });
    const answer = await app.inject({
      method: 'GET',
      url: '/api/users/security-keys',
      headers: { [CALLER_HEADER]: anne.id, [METHODS_HEADER]: 'password' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      keys: [
        { kind: 'passkey', id: '6b65792d32', name: 'anne', addedAt: '2026-11-01T10:00:00Z', synced: true },
        { kind: 'security_key', id: '6b65792d31', name: 'YubiKey', addedAt: '2026-11-01T10:00:00Z', synced: false },
      ],
    });
    expect(answer.body).not.toContain('cHVibGlj');
    expect((await app.inject({ method: 'GET', url: '/api/users/security-keys' })).statusCode).toBe(401);
  });

  it("'Reset 2FA' keeps a security key registered for passwordless sign-in, as Kratos' admin API does", async () => {
    const key = (id: string, passwordless: boolean) => ({
      id: Buffer.from(id).toString('base64'),
      public_key: 'cHVibGlj',
      display_name: id,
      added_at: '2026-11-01T10:00:00Z',
      is_passwordless: passwordless,
    });
    await giveCredential(anne, 'password');
    await giveCredential(anne, 'webauthn', {
      credentials: [key('second', false), key('without-password', true)],
      user_handle: 'dQ==',
    });
    await resetSecondFactor(ctx, await acting(admin), anne.id);
    expect((await ctx.backend.identities.keysOf(anne.id)).map((k) => k.name)).toEqual(['without-password']);
  });
});
