import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminCaller, ApiContext } from '../context.js';
import type { UserIdentity } from '../ports.js';
import { type InProcessApi, inProcessUsersApi, refusal } from '../test-support/in-process-api.js';
import {
  acceptInvitation,
  declineInvitation,
  leaveOrganisation,
  type PersonActing,
  resendInvitation,
  switchOrganisation,
  withdrawInvitation,
} from './organisation-service.js';
import { createUser } from './user-service.js';

// In-process tests of a person's own organisations (docs/organisations.md): the embedded backend on an in-memory
// SQLite database with the demo catalogue, the service called directly, and the routes' declared input through the
// mounted Users API with Fastify's inject (test-support/in-process-api.ts).

const request = { ip: '192.0.2.8' };

let api: InProcessApi;
let ctx: ApiContext;
/** The administrator of Voorbeeldstad. */
let admin: UserIdentity;
/** The administrator of Dijkstad. */
let dijkBeheer: UserIdentity;
/** Home in Dijkstad, a guest in Voorbeeldstad. */
let gast: UserIdentity;
/** A member of Dijkstad only, to be invited to Voorbeeldstad. */
let dirk: UserIdentity;

const orgRelation = (org: string, relation = 'issuer') => ({ namespace: 'organizations', object: org, relation });
const role = (id: string, org: string) => ({ namespace: 'subdivisions', object: `${id}_${org}`, relation: 'issuer' });

/** The person as the Users API resolves them on each request, with what they hold now. */
const as = (user: UserIdentity): Promise<PersonActing & { caller: AdminCaller }> => api.acting(user, request);

const objectsOf = async (user: UserIdentity) =>
  (await ctx.backend.relations.list({ subject_id: user.id })).map((t) => `${t.object}#${t.relation}`).sort();
const recordOf = async (user: UserIdentity) => (await ctx.backend.identities.get([user.id]))[0]!.organisationRecord;
const actionsOn = async (user: UserIdentity) => (await ctx.audit.about(user.id)).map((e) => [e.action, e.result]);
const mailCount = async () =>
  Number(
    (
      await api.db.kysely
        .selectFrom('courier_messages' as never)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n ?? 0,
  );

/** Voorbeeldstad's administrator invites Dirk with one data role; answers the invitation's id. */
async function inviteDirk(): Promise<string> {
  const invited = await createUser(ctx, await as(admin), {
    traits: { email: dirk.traits.email },
    permissions: [role('ruimte', 'voorbeeldstad')],
  });
  if (invited.kind !== 'invited') throw new Error(`expected an invitation, got ${invited.kind}`);
  return invited.invitation.id;
}

beforeEach(async () => {
  api = await inProcessUsersApi();
  ctx = api.ctx;
  admin = await api.person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    orgRelation('voorbeeldstad'),
    orgRelation('voorbeeldstad', 'admin'),
  ]);
  dijkBeheer = await api.person('beheer@dijkstad.nl', 'dijkstad', [
    orgRelation('dijkstad'),
    orgRelation('dijkstad', 'admin'),
  ]);
  gast = await api.person('gast@dijkstad.nl', 'dijkstad', [
    orgRelation('dijkstad'),
    orgRelation('voorbeeldstad'),
    role('ruimte', 'voorbeeldstad'),
  ]);
  dirk = await api.person('dirk@dijkstad.nl', 'dijkstad', [orgRelation('dijkstad')]);
});

afterEach(() => api.close());

describe('the active organisation', () => {
  it('is one the person chooses among their own, kept with the identity and audited', async () => {
    expect(await switchOrganisation(ctx, await as(gast), 'voorbeeldstad')).toEqual({
      activeOrg: { id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad' },
    });
    expect(await recordOf(gast)).toMatchObject({ home: 'dijkstad', active: 'voorbeeldstad' });
    const [entry] = await ctx.audit.about(gast.id);
    expect(entry).toMatchObject({
      action: 'organisation.switch',
      organisationId: 'voorbeeldstad',
      details: { from: 'dijkstad' },
      clientAddress: '192.0.2.8',
    });
  });

  it('cannot be an organisation the person is not a member of (404), and nothing is written', async () => {
    const before = await recordOf(dirk);
    expect((await refusal(switchOrganisation(ctx, await as(dirk), 'voorbeeldstad'))).id).toBe('not_member');
    expect(await recordOf(dirk)).toEqual(before);
    expect(await actionsOn(dirk)).toEqual([]);
  });
});

describe('leaving an organisation', () => {
  it('removes every relation within it and moves the active organisation back home', async () => {
    await switchOrganisation(ctx, await as(gast), 'voorbeeldstad');
    await leaveOrganisation(ctx, await as(gast), 'voorbeeldstad');
    expect(await objectsOf(gast)).toEqual(['dijkstad#issuer']);
    expect(await recordOf(gast)).toEqual({
      home: 'dijkstad',
      active: undefined,
      joined: { dijkstad: expect.any(String) },
    });
    expect((await as(gast)).caller.activeOrg?.id).toBe('dijkstad');
  });

  it('is refused for the home organisation (409) and for one the person is not in (404)', async () => {
    const before = await objectsOf(gast);
    const home = await refusal(leaveOrganisation(ctx, await as(gast), 'dijkstad'));
    expect([home.code, home.id]).toEqual([409, 'home_organisation']);
    const elsewhere = await refusal(leaveOrganisation(ctx, await as(dirk), 'voorbeeldstad'));
    expect([elsewhere.code, elsewhere.id]).toEqual([404, 'not_member']);
    expect(await objectsOf(gast)).toEqual(before);
  });
});

describe('an invitation', () => {
  it('writes the invited tuples only when the person accepts, once, keeping their home', async () => {
    const id = await inviteDirk();
    expect(await objectsOf(dirk)).toEqual(['dijkstad#issuer']);
    expect(await acceptInvitation(ctx, await as(dirk), id)).toEqual({
      organisation: { id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad' },
    });
    expect(await objectsOf(dirk)).toEqual(['dijkstad#issuer', 'ruimte_voorbeeldstad#issuer', 'voorbeeldstad#issuer']);
    expect(await recordOf(dirk)).toMatchObject({ home: 'dijkstad', joined: { voorbeeldstad: expect.any(String) } });
    expect((await refusal(acceptInvitation(ctx, await as(dirk), id))).id).toBe('invitation_not_found');
  });

  it("is answered by the invited person only: someone else's is unknown (404)", async () => {
    const id = await inviteDirk();
    for (const call of [acceptInvitation, declineInvitation])
      expect((await refusal(call(ctx, await as(gast), id))).id).toBe('invitation_not_found');
    expect(await ctx.invitations.get(id)).toBeDefined();
    expect(await objectsOf(gast)).not.toContain('voorbeeldstad#admin');
  });

  it('declined writes no tuple, and is gone', async () => {
    const id = await inviteDirk();
    await declineInvitation(ctx, await as(dirk), id);
    expect(await objectsOf(dirk)).toEqual(['dijkstad#issuer']);
    expect(await ctx.invitations.get(id)).toBeUndefined();
    expect((await actionsOn(dirk)).map(([action]) => action).sort()).toEqual(['invitation.decline', 'invitation.send']);
  });

  it('is withdrawn by an administrator of the inviting organisation only', async () => {
    const id = await inviteDirk();
    expect((await refusal(withdrawInvitation(ctx, await as(dijkBeheer), id))).id).toBe('invitation_not_found');
    expect(await ctx.invitations.get(id)).toBeDefined();
    await withdrawInvitation(ctx, await as(admin), id);
    expect(await ctx.invitations.get(id)).toBeUndefined();
    expect((await refusal(acceptInvitation(ctx, await as(dirk), id))).id).toBe('invitation_not_found');
  });

  it('is sent again by an administrator of the inviting organisation: a mail, valid from now, audited', async () => {
    const id = await inviteDirk();
    const first = (await ctx.invitations.get(id))!;
    const mails = await mailCount();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const resent = await resendInvitation(ctx, await as(admin), id);
    expect(resent.id).toBe(id);
    expect(Date.parse(resent.expiresAt)).toBeGreaterThan(Date.parse(first.expiresAt));
    expect(await ctx.invitations.get(id)).toEqual({ ...first, expiresAt: resent.expiresAt });
    expect(await mailCount()).toBe(mails + 1);
    expect(await actionsOn(dirk)).toContainEqual(['invitation.resend', 'success']);
    // Still the same invitation: accepting it writes the invited tuples.
    await acceptInvitation(ctx, await as(dirk), id);
    expect(await objectsOf(dirk)).toContain('ruimte_voorbeeldstad#issuer');
  });

  it('is not sent again for another organisation, once answered, or past the mail limits: no change', async () => {
    const id = await inviteDirk();
    const stored = await ctx.invitations.get(id);
    const mails = await mailCount();
    expect((await refusal(resendInvitation(ctx, await as(dijkBeheer), id))).id).toBe('invitation_not_found');
    // The first mail and two more reach one address within 15 minutes (mail-throttle.ts); a fourth is refused.
    await resendInvitation(ctx, await as(admin), id);
    await resendInvitation(ctx, await as(admin), id);
    const renewed = await ctx.invitations.get(id);
    const limited = await refusal(resendInvitation(ctx, await as(admin), id));
    expect(limited.code).toBe(429);
    expect(await ctx.invitations.get(id)).toEqual(renewed);
    expect(await mailCount()).toBe(mails + 2);
    expect(renewed).not.toEqual(stored);
    await declineInvitation(ctx, await as(dirk), id);
    expect((await refusal(resendInvitation(ctx, await as(admin), id))).id).toBe('invitation_not_found');
    expect(await ctx.invitations.get(id)).toBeUndefined();
    expect((await actionsOn(dirk)).filter(([action]) => action === 'invitation.resend')).toHaveLength(2);
  });
});

describe('the routes', () => {
  const call: InProcessApi['call'] = (...args) => api.call(...args);

  it('refuse input the declared schemas do not accept in the envelope, as before', async () => {
    const extra = await call(gast, 'PUT', '/api/users/active-organisation', { organisation: 'dijkstad', x: 1 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toEqual({
      error: {
        id: 'invalid_request',
        code: 400,
        status: 'Bad Request',
        reason: expect.stringContaining('The request body is invalid'),
        message: 'Het verzoek is niet compleet of niet geldig.',
      },
    });
    expect((await call(gast, 'PUT', '/api/users/active-organisation', { organisation: '' })).statusCode).toBe(400);
    const notAnId = await call(dirk, 'POST', '/api/invitations/geen-id/accept');
    expect([notAnId.statusCode, notAnId.json().error.id]).toEqual([404, 'invitation_not_found']);
    const home = await call(gast, 'DELETE', '/api/users/organisations/dijkstad');
    expect([home.statusCode, home.json().error.id]).toEqual([409, 'home_organisation']);
  });

  it('ask who calls before they look at the input', async () => {
    const anonymous = await call(undefined, 'PUT', '/api/users/active-organisation', { wrong: true });
    expect([anonymous.statusCode, anonymous.json().error.id]).toEqual([401, 'session_inactive']);
    const member = await call(dirk, 'DELETE', '/api/invitations/geen-id');
    expect([member.statusCode, member.json().error.id]).toEqual([403, 'forbidden_not_admin']);
  });

  it('answer with the statuses of docs/organisations.md', async () => {
    const switched = await call(gast, 'PUT', '/api/users/active-organisation', { organisation: 'voorbeeldstad' });
    expect([switched.statusCode, switched.json().activeOrg.id]).toEqual([200, 'voorbeeldstad']);
    const id = await inviteDirk();
    const accepted = await call(dirk, 'POST', `/api/invitations/${id.toUpperCase()}/accept`);
    expect([accepted.statusCode, accepted.json().organisation.id]).toEqual([200, 'voorbeeldstad']);
    expect((await call(dirk, 'DELETE', '/api/users/organisations/voorbeeldstad')).statusCode).toBe(204);
    const again = await inviteDirk();
    const resent = await call(admin, 'POST', `/api/invitations/${again}/resend`);
    expect([resent.statusCode, resent.json().id]).toEqual([200, again]);
    const notAdmin = await call(dirk, 'POST', `/api/invitations/${again}/resend`);
    expect([notAdmin.statusCode, notAdmin.json().error.id]).toEqual([403, 'forbidden_not_admin']);
    expect((await call(admin, 'DELETE', `/api/invitations/${again}`)).statusCode).toBe(204);
  });
});
