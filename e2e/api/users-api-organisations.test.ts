import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { startPortaal } from '../support/portaal.js';
import { failure, newBrowser, type Browser } from '../support/ory.js';
import { uniqueEmail } from '../support/identities.js';
import { attemptLogin, enrolTotp } from '../support/flows.js';
import {
  DEMO_PASSWORD,
  api,
  auditEntries,
  createMember,
  getJson,
  relationTuples,
  signInAtAal1,
  signInAtAal2,
  type Person,
} from '../support/portal-users.js';

// People in several organisations (docs/organisations.md): joining needs the person's consent, only the home
// organisation changes the account itself, and the person chooses the active organisation. The three attacks of the
// issue are replayed by an administrator of DEGO against people whose home is Gemeente Voorbeeldstad.

const DEGO = { id: 'dego', label: 'DEGO (Data-ecosysteem Gemeentelijke Overheid)' };
const VOORBEELDSTAD = { id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad' };
const BEA = 'beheerder@voorbeeldstad.nl';
const DEGO_ADMIN = 'beheer@dego.nl';
const DEGO_ADMIN_PASSWORD = 'Duinen-Strand-Golf-31';
const PASSWORD = 'Fiets-Kanaal-Brug-58';
const HOURS_72 = 72 * 3_600_000;
// Our identity provider mails the linking of an authenticator app; that notice is not the mail looked for.
const notLinkedNotice = (mail: { subject: string }) =>
  mail.subject !== 'Er is een authenticator-app aan je account gekoppeld';

let portaal: Deployment;
let bea: Person & { secret: string };
let degoAdmin: Person;

beforeAll(async () => {
  portaal = await startDeployment({ args: ['--demo'] });
  await createMember(portaal, {
    email: DEGO_ADMIN,
    password: DEGO_ADMIN_PASSWORD,
    org: 'dego',
    admin: true,
    first: 'Daan',
  });
  bea = await signInAtAal2(portaal, BEA, DEMO_PASSWORD);
  // DEGO requires no second factor: its administrator works at aal1.
  degoAdmin = await signInAtAal1(portaal, DEGO_ADMIN, DEGO_ADMIN_PASSWORD);
});
afterAll(async () => {
  await portaal?.stop();
});

const dataRole = (org: string, role: string) => ({
  namespace: 'subdivisions',
  object: `${role}_${org}`,
  relation: 'issuer',
});
const tupleText = (t: { namespace: string; object: string; relation: string }) =>
  `${t.namespace}:${t.object}#${t.relation}`;
const withinDego = (t: { object: string }) => t.object === 'dego' || t.object.endsWith('_dego');

async function identityIdOf(email: string): Promise<string> {
  const found = await getJson(
    `${portaal.adminUrl}/admin/identities?credentials_identifier=${encodeURIComponent(email)}`,
  );
  expect(found, email).toHaveLength(1);
  return found[0].id;
}

/** What only the home organisation may change, and every tuple of the person. */
async function standing(id: string) {
  const identity = await getJson(`${portaal.adminUrl}/admin/identities/${id}`);
  return {
    traits: identity.traits,
    state: identity.state,
    credentials: Object.keys(identity.credentials ?? {}).sort(),
    tuples: (await relationTuples(portaal, { subject_id: id })).map(tupleText).sort(),
  };
}

async function degoMembers(): Promise<string[]> {
  const tuples = await relationTuples(portaal, { namespace: 'organizations', object: 'dego' });
  return tuples.map((t) => t.subject_id!);
}

const whoami = async (who: Browser) => {
  const answer = await api(portaal, who, 'GET', '/users/whoami');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
};

async function listedBy(admin: Browser, id: string) {
  const listed = await api(portaal, admin, 'GET', '/users');
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return listed.body.find((u: { id: string }) => u.id === id);
}

async function invite(admin: Browser, email: string, permissions: unknown[] = []) {
  const answer = await api(portaal, admin, 'POST', '/users', { traits: { email }, permissions });
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return answer.body.invitation as { id: string; expiresAt: string };
}

/** The entries of the audit logs the administrators of DEGO and Voorbeeldstad read. */
async function audited() {
  const [dego, voorbeeldstad] = await Promise.all([
    auditEntries(portaal, degoAdmin.browser),
    auditEntries(portaal, bea.browser),
  ]);
  return [...dego, ...voorbeeldstad];
}

/** A person created in Voorbeeldstad (their home), signed in at aal2. */
async function voorbeeldstadPerson(prefix: string) {
  const email = uniqueEmail(prefix);
  await createMember(portaal, { email, password: PASSWORD, org: 'voorbeeldstad', first: 'Sam', last: 'Gedeeld' });
  const person = await signInAtAal2(portaal, email, PASSWORD);
  return { ...person, id: (await whoami(person.browser)).identity.id as string };
}

/** A Voorbeeldstad person who accepted DEGO's invitation: DEGO is a guest organisation for them. */
async function sharedPerson(prefix: string, degoPermissions: unknown[] = []) {
  const person = await voorbeeldstadPerson(prefix);
  const invitation = await invite(degoAdmin.browser, person.email, degoPermissions);
  const accepted = await api(portaal, person.browser, 'POST', `/invitations/${invitation.id}/accept`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return person;
}

function expectAbout72Hours(expiresAt: string, since: Date) {
  const at = Date.parse(expiresAt);
  expect(at, expiresAt).toBeGreaterThanOrEqual(since.getTime() + HOURS_72 - 60_000);
  expect(at, expiresAt).toBeLessThanOrEqual(Date.now() + HOURS_72 + 60_000);
}

describe('attack 1: another organisation submits the address of a Voorbeeldstad administrator', () => {
  it('makes only an invitation; she keeps her organisation and standing, accepts, picks where she works', async () => {
    const beaId = await identityIdOf(BEA);
    const before = await standing(beaId);
    const since = new Date();

    const submitted = await api(portaal, degoAdmin.browser, 'POST', '/users', { traits: { email: BEA } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const invitation = submitted.body.invitation as { id: string; expiresAt: string };
    expect(invitation.id).toEqual(expect.any(String));
    expectAbout72Hours(invitation.expiresAt, since);

    // Nothing changed for her: not a member of DEGO, still the administrator of her active Voorbeeldstad.
    expect(await standing(beaId)).toEqual(before);
    expect(await degoMembers()).not.toContain(beaId);
    const invited = await whoami(bea.browser);
    expect(invited).toMatchObject({
      activeOrg: { id: 'voorbeeldstad' },
      isAdmin: true,
      homeOrganisation: 'voorbeeldstad',
    });
    expect(invited.organisations).toEqual([
      { ...VOORBEELDSTAD, isAdmin: true, requiresAal2: true, home: true, active: true },
    ]);
    expect(invited.invitations).toEqual([
      {
        id: invitation.id,
        organisation: DEGO,
        invitedBy: DEGO_ADMIN,
        isAdmin: false,
        dataRoles: [],
        expiresAt: invitation.expiresAt,
      },
    ]);
    expect((await api(portaal, bea.browser, 'GET', '/users')).status).toBe(200);

    // DEGO sees her as invited, without credentials and without anything of Voorbeeldstad.
    const asInvited = await listedBy(degoAdmin.browser, beaId);
    expect(asInvited).toMatchObject({
      home: false,
      credentials: [],
      invitation: { id: invitation.id, expiresAt: invitation.expiresAt },
    });
    expect(asInvited.permissions.every(withinDego), JSON.stringify(asInvited.permissions)).toBe(true);
    expect(asInvited.permissions.some((p: { relation: string }) => p.relation === 'admin')).toBe(false);

    // The mail names the inviting organisation.
    const mail = await portaal.mail.waitFor(BEA, { since, filter: notLinkedNotice });
    expect(mail.text).toContain(DEGO.label);
    expect(await audited()).toContainEqual(
      expect.objectContaining({
        action: 'invitation.send',
        actorEmail: DEGO_ADMIN,
        objectEmail: BEA,
        organisationId: 'dego',
        result: 'success',
      }),
    );

    // She accepts: a member of DEGO, still working in (and administrator of) Voorbeeldstad.
    const accepted = await api(portaal, bea.browser, 'POST', `/invitations/${invitation.id}/accept`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toEqual({ organisation: DEGO });
    const degoTuples = await relationTuples(portaal, { namespace: 'organizations', object: 'dego', subject_id: beaId });
    expect(degoTuples.map(tupleText)).toEqual(['organizations:dego#issuer']);
    const afterAccept = await standing(beaId);
    expect(afterAccept.tuples.filter((t) => !t.includes('dego'))).toEqual(before.tuples);
    expect({ ...afterAccept, tuples: [] }).toEqual({ ...before, tuples: [] });
    const member = await whoami(bea.browser);
    expect(member).toMatchObject({
      activeOrg: { id: 'voorbeeldstad' },
      isAdmin: true,
      homeOrganisation: 'voorbeeldstad',
    });
    expect(member.organisations).toEqual([
      { ...DEGO, isAdmin: false, requiresAal2: false, home: false, active: false },
      { ...VOORBEELDSTAD, isAdmin: true, requiresAal2: true, home: true, active: true },
    ]);
    expect(member.invitations).toEqual([]);
    expect(await listedBy(degoAdmin.browser, beaId)).toMatchObject({ home: false, credentials: [] });
    expect((await listedBy(degoAdmin.browser, beaId)).invitation).toBeUndefined();
    expect((await listedBy(bea.browser, beaId)).home).toBe(true);

    // She switches to DEGO, where she is no administrator; the choice is kept with her identity.
    const toDego = await api(portaal, bea.browser, 'PUT', '/users/active-organisation', { organisation: 'dego' });
    expect(toDego.status, JSON.stringify(toDego.body)).toBe(200);
    expect(toDego.body).toEqual({ activeOrg: DEGO });
    const inDego = await whoami(bea.browser);
    expect(inDego).toMatchObject({ activeOrg: { id: 'dego' }, isAdmin: false, homeOrganisation: 'voorbeeldstad' });
    expect(inDego.organisations.map((o: { id: string; active: boolean }) => [o.id, o.active])).toEqual([
      ['dego', true],
      ['voorbeeldstad', false],
    ]);
    expect((await api(portaal, bea.browser, 'GET', '/users')).status).toBe(403);
    const kept = await getJson(`${portaal.adminUrl}/admin/identities/${beaId}`);
    expect(kept.metadata_admin).toMatchObject({ home_organisation: 'voorbeeldstad', active_organisation: 'dego' });
    const again = await signInAtAal2(portaal, BEA, DEMO_PASSWORD, bea.secret);
    expect((await whoami(again.browser)).activeOrg.id).toBe('dego');

    // And back; an organisation she does not belong to is refused.
    const back = await api(portaal, bea.browser, 'PUT', '/users/active-organisation', {
      organisation: 'voorbeeldstad',
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toEqual({ activeOrg: VOORBEELDSTAD });
    const elsewhere = await api(portaal, bea.browser, 'PUT', '/users/active-organisation', {
      organisation: 'dijkstad',
    });
    expect([elsewhere.status, elsewhere.body?.error?.id]).toEqual([404, 'not_member']);
    expect(await whoami(bea.browser)).toMatchObject({ activeOrg: { id: 'voorbeeldstad' }, isAdmin: true });
    expect((await api(portaal, bea.browser, 'GET', '/users')).status).toBe(200);

    const log = await audited();
    expect(log).toContainEqual(
      expect.objectContaining({ action: 'invitation.accept', actorEmail: BEA, result: 'success' }),
    );
    expect(log).toContainEqual(
      expect.objectContaining({ action: 'organisation.switch', actorEmail: BEA, result: 'success' }),
    );
    // Still not in DEGO's administrators.
    expect(
      await relationTuples(portaal, {
        namespace: 'organizations',
        object: 'dego',
        relation: 'admin',
        subject_id: beaId,
      }),
    ).toEqual([]);
  });
});

describe('attack 2: a guest organisation renames a shared person', () => {
  it('is refused for names and address, passes a request changing nothing, changes only its own roles', async () => {
    const person = await sharedPerson('hernoemd');
    const before = await standing(person.id);
    const listed = await listedBy(degoAdmin.browser, person.id);
    expect(listed).toMatchObject({ home: false, credentials: [] });
    expect(listed.permissions.every(withinDego), JSON.stringify(listed.permissions)).toBe(true);

    const renamed = await api(portaal, degoAdmin.browser, 'PUT', `/users/${person.id}`, {
      schema_id: 'default',
      state: 'active',
      traits: { ...before.traits, name: { first: 'Anders', last: 'Genoemd' } },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(409);
    expect(renamed.body.error.id).toBe('user_in_other_organisation');
    expect(renamed.body.error.message).toEqual(expect.any(String));
    const readdressed = await api(portaal, degoAdmin.browser, 'PUT', `/users/${person.id}`, {
      traits: { ...before.traits, email: uniqueEmail('overgenomen') },
    });
    expect([readdressed.status, readdressed.body.error?.id]).toEqual([409, 'user_in_other_organisation']);
    expect(await standing(person.id)).toEqual(before);

    // The portal's form sends everything back: with unchanged values it passes.
    const unchanged = await api(portaal, degoAdmin.browser, 'PUT', `/users/${person.id}`, {
      schema_id: 'default',
      state: 'active',
      traits: before.traits,
    });
    expect(unchanged.status, JSON.stringify(unchanged.body)).toBe(200);
    expect(await standing(person.id)).toEqual(before);

    // Its own data roles and administrator flag it may change.
    const roles = await api(portaal, degoAdmin.browser, 'PUT', `/permissions/${person.id}`, [
      dataRole('dego', 'analyse'),
      { namespace: 'organizations', object: 'dego', relation: 'admin' },
    ]);
    expect(roles.status, JSON.stringify(roles.body)).toBe(200);
    const after = await standing(person.id);
    expect(after.tuples).toEqual(
      [...before.tuples, 'subdivisions:analyse_dego#issuer', 'organizations:dego#admin'].sort(),
    );
    const shared = await whoami(person.browser);
    expect(shared.organisations.find((o: { id: string }) => o.id === 'dego')).toMatchObject({
      isAdmin: true,
      home: false,
    });
    expect(shared).toMatchObject({
      homeOrganisation: 'voorbeeldstad',
      activeOrg: { id: 'voorbeeldstad' },
      isAdmin: false,
    });
    expect(
      (
        await api(
          portaal,
          degoAdmin.browser,
          'DELETE',
          `/permissions?namespace=organizations&object=dego&relation=admin&subject_id=${person.id}`,
        )
      ).status,
    ).toBe(204);

    // The home organisation still renames.
    const home = await api(portaal, bea.browser, 'PUT', `/users/${person.id}`, {
      traits: { ...before.traits, name: { first: 'Nieuwe', last: 'Naam' } },
    });
    expect(home.status, JSON.stringify(home.body)).toBe(200);
    expect((await standing(person.id)).traits.name).toEqual({ first: 'Nieuwe', last: 'Naam' });
  });
});

describe('attack 3: a guest organisation blocks, unblocks or resets the second factor of a shared person', () => {
  it('is refused each time and the state the home organisation chose stays', async () => {
    const person = await sharedPerson('geblokkeerd');
    const before = await standing(person.id);
    expect(before.credentials).toContain('totp');

    const block = await api(portaal, degoAdmin.browser, 'PUT', `/users/${person.id}`, { state: 'inactive' });
    expect([block.status, block.body.error?.id]).toEqual([409, 'user_in_other_organisation']);
    const reset = await api(portaal, degoAdmin.browser, 'DELETE', `/users/${person.id}/totp`);
    expect([reset.status, reset.body?.error?.id]).toEqual([409, 'user_in_other_organisation']);
    expect(await standing(person.id)).toEqual(before);
    expect((await api(portaal, person.browser, 'GET', '/users/whoami')).status).toBe(200);

    // Voorbeeldstad, the home organisation, blocks; DEGO cannot undo it.
    expect((await api(portaal, bea.browser, 'PUT', `/users/${person.id}`, { state: 'inactive' })).status).toBe(200);
    const blocked = await standing(person.id);
    expect(blocked.state).toBe('inactive');
    const unblock = await api(portaal, degoAdmin.browser, 'PUT', `/users/${person.id}`, { state: 'active' });
    expect([unblock.status, unblock.body.error?.id]).toEqual([409, 'user_in_other_organisation']);
    const unblockWithForm = await api(portaal, degoAdmin.browser, 'PUT', `/users/${person.id}`, {
      schema_id: 'default',
      state: 'active',
      traits: before.traits,
    });
    expect([unblockWithForm.status, unblockWithForm.body.error?.id]).toEqual([409, 'user_in_other_organisation']);
    const resetBlocked = await api(portaal, degoAdmin.browser, 'DELETE', `/users/${person.id}/totp`);
    expect(resetBlocked.status).toBe(409);
    expect(await standing(person.id)).toEqual(blocked);
    // A request that changes nothing passes, and changes nothing.
    const same = await api(portaal, degoAdmin.browser, 'PUT', `/users/${person.id}`, { state: 'inactive' });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(await standing(person.id)).toEqual(blocked);
  });
});

describe('a lock after failed sign-ins', () => {
  // Lock details are the home organisation's business (it alone may lift them); a guest or inviting organisation
  // sees neither the lock nor the credentials (docs/organisations.md).
  it('shows only to the home organisation, not to a guest nor to an inviting organisation', async () => {
    const guest = await sharedPerson('slot-gast');
    const invited = await voorbeeldstadPerson('slot-uitgenodigd');
    await invite(degoAdmin.browser, invited.email);
    for (const email of [guest.email, invited.email]) {
      const browser = newBrowser(portaal.publicUrl);
      for (let attempt = 0; attempt < 10; attempt++) await failure(attemptLogin(browser, email, 'Fout-Wachtwoord-1'));
    }
    for (const person of [guest, invited]) {
      const seenByDego = await listedBy(degoAdmin.browser, person.id);
      expect(seenByDego, `${person.email} in the list of DEGO`).toMatchObject({ home: false, credentials: [] });
      expect(seenByDego.lockedUntil, `the lock of ${person.email} shown to DEGO`).toBeUndefined();
      const seenAtHome = await listedBy(bea.browser, person.id);
      // Kratos keeps no such lock: nothing to show at home either.
      if (portaal.backend !== 'ory') expect(Date.parse(seenAtHome.lockedUntil)).toBeGreaterThan(Date.now());
    }
  });
});

describe('invitations', () => {
  it('are declined by the invited person: nothing is written and the invitation is gone', async () => {
    const person = await voorbeeldstadPerson('afgewezen');
    const since = new Date();
    const invitation = await invite(degoAdmin.browser, person.email, [dataRole('dego', 'analyse')]);
    const before = await standing(person.id);
    expect((await whoami(person.browser)).invitations).toEqual([
      {
        id: invitation.id,
        organisation: DEGO,
        invitedBy: DEGO_ADMIN,
        isAdmin: false,
        dataRoles: [{ roleId: 'analyse', label: 'Analyse' }],
        expiresAt: invitation.expiresAt,
      },
    ]);
    expectAbout72Hours(invitation.expiresAt, since);
    expect(await listedBy(degoAdmin.browser, person.id)).toMatchObject({
      credentials: [],
      invitation: { id: invitation.id },
    });

    const declined = await api(portaal, person.browser, 'POST', `/invitations/${invitation.id}/decline`);
    expect(declined.status, JSON.stringify(declined.body)).toBe(204);
    expect(await standing(person.id)).toEqual(before);
    expect(await degoMembers()).not.toContain(person.id);
    const after = await whoami(person.browser);
    expect(after.invitations).toEqual([]);
    expect(after.organisations.map((o: { id: string }) => o.id)).toEqual(['voorbeeldstad']);
    expect(await listedBy(degoAdmin.browser, person.id)).toBeUndefined();
    const late = await api(portaal, person.browser, 'POST', `/invitations/${invitation.id}/accept`);
    expect([late.status, late.body?.error?.id]).toEqual([404, 'invitation_not_found']);
    expect(await audited()).toContainEqual(
      expect.objectContaining({ action: 'invitation.decline', actorEmail: person.email, result: 'success' }),
    );
  });

  it('are sent again by the inviting organisation only: a second mail, valid from now, same id', async () => {
    const person = await voorbeeldstadPerson('nogmaals');
    const invitation = await invite(degoAdmin.browser, person.email);
    const foreign = await api(portaal, bea.browser, 'POST', `/invitations/${invitation.id}/resend`);
    expect([403, 404], JSON.stringify(foreign.body)).toContain(foreign.status);

    const since = new Date();
    const resent = await api(portaal, degoAdmin.browser, 'POST', `/invitations/${invitation.id}/resend`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.id).toBe(invitation.id);
    expect(Date.parse(resent.body.expiresAt)).toBeGreaterThan(Date.parse(invitation.expiresAt));
    const mail = await portaal.mail.waitFor(person.email, { since, filter: notLinkedNotice });
    expect(mail.subject).toBe(`Uitnodiging van ${DEGO.label} in het Datavoorzieningen Portaal`);
    expect((await listedBy(degoAdmin.browser, person.id))?.invitation).toEqual(resent.body);
    expect(await auditEntries(portaal, degoAdmin.browser)).toContainEqual(
      expect.objectContaining({ action: 'invitation.resend', objectEmail: person.email, result: 'success' }),
    );
    const accepted = await api(portaal, person.browser, 'POST', `/invitations/${invitation.id}/accept`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const late = await api(portaal, degoAdmin.browser, 'POST', `/invitations/${invitation.id}/resend`);
    expect([late.status, late.body?.error?.id]).toEqual([404, 'invitation_not_found']);
  });

  it('are withdrawn by the inviting organisation only', async () => {
    const person = await voorbeeldstadPerson('ingetrokken');
    const invitation = await invite(degoAdmin.browser, person.email);
    const before = await standing(person.id);

    // Another organisation's administrator cannot withdraw it.
    const foreign = await api(portaal, bea.browser, 'DELETE', `/invitations/${invitation.id}`);
    expect([403, 404], JSON.stringify(foreign.body)).toContain(foreign.status);
    expect((await whoami(person.browser)).invitations.map((i: { id: string }) => i.id)).toEqual([invitation.id]);

    const withdrawn = await api(portaal, degoAdmin.browser, 'DELETE', `/invitations/${invitation.id}`);
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(204);
    expect((await whoami(person.browser)).invitations).toEqual([]);
    expect(await listedBy(degoAdmin.browser, person.id)).toBeUndefined();
    const late = await api(portaal, person.browser, 'POST', `/invitations/${invitation.id}/accept`);
    expect([late.status, late.body?.error?.id]).toEqual([404, 'invitation_not_found']);
    expect(await standing(person.id)).toEqual(before);
    expect(await degoMembers()).not.toContain(person.id);
    expect(await auditEntries(portaal, degoAdmin.browser)).toContainEqual(
      expect.objectContaining({
        action: 'invitation.withdraw',
        actorEmail: DEGO_ADMIN,
        objectEmail: person.email,
        organisationId: 'dego',
        result: 'success',
      }),
    );
  });

  it('cannot be accepted or declined by anyone but the invited person', async () => {
    const person = await voorbeeldstadPerson('bedoeld');
    const other = await voorbeeldstadPerson('ander');
    const invitation = await invite(degoAdmin.browser, person.email);

    for (const who of [other.browser, degoAdmin.browser]) {
      for (const step of ['accept', 'decline']) {
        const answer = await api(portaal, who, 'POST', `/invitations/${invitation.id}/${step}`);
        expect([answer.status, answer.body?.error?.id], step).toEqual([404, 'invitation_not_found']);
      }
    }
    const anonymous = await api(portaal, newBrowser(portaal.publicUrl), 'POST', `/invitations/${invitation.id}/accept`);
    expect(anonymous.status).toBe(401);
    const unknown = await api(
      portaal,
      person.browser,
      'POST',
      '/invitations/00000000-0000-4000-8000-000000000000/accept',
    );
    expect([unknown.status, unknown.body?.error?.id]).toEqual([404, 'invitation_not_found']);
    expect(await degoMembers()).not.toContain(other.id);
    expect(await degoMembers()).not.toContain(person.id);
    expect((await whoami(other.browser)).organisations.map((o: { id: string }) => o.id)).toEqual(['voorbeeldstad']);

    // Still pending for the person it is meant for.
    expect((await whoami(person.browser)).invitations.map((i: { id: string }) => i.id)).toEqual([invitation.id]);
    expect((await api(portaal, person.browser, 'POST', `/invitations/${invitation.id}/accept`)).status).toBe(200);
    expect(await degoMembers()).toContain(person.id);
  });

  it('are replaced by a second submit of the same address', async () => {
    const person = await voorbeeldstadPerson('tweemaal');
    await invite(degoAdmin.browser, person.email);
    const second = await invite(degoAdmin.browser, person.email, [dataRole('dego', 'analyse')]);
    const pending = (await whoami(person.browser)).invitations;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ id: second.id, dataRoles: [{ roleId: 'analyse', label: 'Analyse' }] });
    expect((await api(portaal, person.browser, 'POST', `/invitations/${second.id}/accept`)).status).toBe(200);
    expect(
      (await relationTuples(portaal, { subject_id: person.id })).map(tupleText).filter((t) => t.includes('dego')),
    ).toEqual(expect.arrayContaining(['organizations:dego#issuer', 'subdivisions:analyse_dego#issuer']));
  });

  it('of a current member keep the immediate update of data roles', async () => {
    const person = await sharedPerson('al-lid');
    const again = await api(portaal, degoAdmin.browser, 'POST', '/users', {
      traits: { email: person.email },
      permissions: [dataRole('dego', 'analyse')],
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toBe(true);
    expect((await standing(person.id)).tuples).toContain('subdivisions:analyse_dego#issuer');
    expect((await whoami(person.browser)).invitations).toEqual([]);
  });
});

describe('leaving and removing', () => {
  it('lets a person leave a guest organisation, not their home; the home becomes active again', async () => {
    const person = await sharedPerson('vertrek', [dataRole('dego', 'analyse')]);
    const before = await standing(person.id);
    expect(before.tuples).toContain('subdivisions:analyse_dego#issuer');

    const home = await api(portaal, person.browser, 'DELETE', '/users/organisations/voorbeeldstad');
    expect([home.status, home.body?.error?.id]).toEqual([409, 'home_organisation']);
    const notMember = await api(portaal, person.browser, 'DELETE', '/users/organisations/dijkstad');
    expect([notMember.status, notMember.body?.error?.id]).toEqual([404, 'not_member']);
    expect(await standing(person.id)).toEqual(before);

    expect(
      (await api(portaal, person.browser, 'PUT', '/users/active-organisation', { organisation: 'dego' })).status,
    ).toBe(200);
    const left = await api(portaal, person.browser, 'DELETE', '/users/organisations/dego');
    expect(left.status, JSON.stringify(left.body)).toBe(204);
    const after = await standing(person.id);
    expect(after.tuples).toEqual(before.tuples.filter((t) => !t.includes('dego')));
    expect({ ...after, tuples: [] }).toEqual({ ...before, tuples: [] });
    const me = await whoami(person.browser);
    expect(me).toMatchObject({ activeOrg: { id: 'voorbeeldstad' }, homeOrganisation: 'voorbeeldstad' });
    expect(me.organisations.map((o: { id: string }) => o.id)).toEqual(['voorbeeldstad']);
    expect(await listedBy(degoAdmin.browser, person.id)).toBeUndefined();
    expect(await audited()).toContainEqual(
      expect.objectContaining({ action: 'organisation.leave', actorEmail: person.email, result: 'success' }),
    );
  });

  it('lets a guest organisation remove only its own membership: the identity and home organisation stay', async () => {
    const person = await sharedPerson('gast-weg', [dataRole('dego', 'analyse')]);
    const before = await standing(person.id);
    const removed = await api(portaal, degoAdmin.browser, 'DELETE', `/users?id=${person.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    const after = await standing(person.id);
    expect(after.tuples).toEqual(before.tuples.filter((t) => !t.includes('dego')));
    expect({ ...after, tuples: [] }).toEqual({ ...before, tuples: [] });
    expect(await listedBy(degoAdmin.browser, person.id)).toBeUndefined();
    expect(await listedBy(bea.browser, person.id)).toMatchObject({ home: true, traits: { email: person.email } });
    expect(await whoami(person.browser)).toMatchObject({
      homeOrganisation: 'voorbeeldstad',
      activeOrg: { id: 'voorbeeldstad' },
    });
  });

  it('lets the home organisation remove a person who belongs elsewhere too: the next membership is home', async () => {
    const person = await sharedPerson('verhuisd');
    const before = await standing(person.id);
    const removed = await api(portaal, bea.browser, 'DELETE', `/users?id=${person.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    const after = await getJson(`${portaal.adminUrl}/admin/identities/${person.id}`);
    expect(after).toMatchObject({ traits: before.traits, state: 'active' });
    expect(after.metadata_admin).toMatchObject({ home_organisation: 'dego' });
    expect((await relationTuples(portaal, { subject_id: person.id })).map(tupleText)).toEqual([
      'organizations:dego#issuer',
    ]);
    expect(await listedBy(bea.browser, person.id)).toBeUndefined();
    expect(await listedBy(degoAdmin.browser, person.id)).toMatchObject({ home: true });
    expect(await whoami(person.browser)).toMatchObject({ homeOrganisation: 'dego', activeOrg: { id: 'dego' } });
    // DEGO is now the home organisation and changes the account itself.
    const renamed = await api(portaal, degoAdmin.browser, 'PUT', `/users/${person.id}`, {
      traits: { ...before.traits, name: { first: 'Nu', last: 'Dego' } },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  });
});

describe('the second factor', () => {
  it('is required once a person joins an organisation that requires it', async () => {
    const email = uniqueEmail('dego-lid');
    await createMember(portaal, { email, password: PASSWORD, org: 'dego', first: 'Dina' });
    const person = await signInAtAal1(portaal, email, PASSWORD);
    expect(await whoami(person.browser)).toMatchObject({
      aal2Required: false,
      homeOrganisation: 'dego',
      activeOrg: { id: 'dego' },
    });

    const since = new Date();
    const invitation = await invite(bea.browser, email, [dataRole('voorbeeldstad', 'ruimte')]);
    const mail = await portaal.mail.waitFor(email, { since, filter: notLinkedNotice });
    expect(mail.text).toContain(VOORBEELDSTAD.label);
    const pending = await whoami(person.browser);
    expect(pending.aal2Required).toBe(false);
    expect(pending.invitations).toEqual([
      {
        id: invitation.id,
        organisation: VOORBEELDSTAD,
        invitedBy: BEA,
        isAdmin: false,
        dataRoles: [{ roleId: 'ruimte', label: 'Ruimte en wonen' }],
        expiresAt: invitation.expiresAt,
      },
    ]);

    // Before accepting only DEGO counts, so aal1 is enough to accept.
    const accepted = await api(portaal, person.browser, 'POST', `/invitations/${invitation.id}/accept`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toEqual({ organisation: VOORBEELDSTAD });
    const joined = await whoami(person.browser);
    expect(joined).toMatchObject({
      aal2Required: true,
      authenticator_assurance_level: 'aal1',
      homeOrganisation: 'dego',
      activeOrg: { id: 'dego' },
    });
    expect(joined.organisations).toEqual([
      { ...DEGO, isAdmin: false, requiresAal2: false, home: true, active: true },
      { ...VOORBEELDSTAD, isAdmin: false, requiresAal2: true, home: false, active: false },
    ]);
    const refused = await api(portaal, person.browser, 'GET', '/services');
    expect([refused.status, refused.body.error.id]).toEqual([403, 'session_aal2_required']);

    await enrolTotp(person.browser, -1);
    expect((await api(portaal, person.browser, 'GET', '/services')).status).toBe(200);
    expect(
      (await api(portaal, person.browser, 'PUT', '/users/active-organisation', { organisation: 'voorbeeldstad' }))
        .status,
    ).toBe(200);
    const services = await api(portaal, person.browser, 'GET', '/services');
    expect(services.body.dataRoles).toEqual([{ roleId: 'ruimte', label: 'Ruimte en wonen' }]);
    expect(await auditEntries(portaal, bea.browser)).toContainEqual(
      expect.objectContaining({ action: 'invitation.send', actorEmail: BEA, objectEmail: email }),
    );
  });
});

describe('an invitation past INVITATION_LIFESPAN', () => {
  it('expires: it cannot be accepted, nobody sees it any more, and the expiry is audited', async () => {
    // A portaal of its own whose invitations live three seconds (the embedded provider: the lifespan is the portal's).
    const short = await startPortaal({ args: ['--demo'], env: { INVITATION_LIFESPAN: '3s' } });
    try {
      await createMember(short, { email: DEGO_ADMIN, password: DEGO_ADMIN_PASSWORD, org: 'dego', admin: true });
      const admin = await signInAtAal1(short, DEGO_ADMIN, DEGO_ADMIN_PASSWORD);
      const person = await signInAtAal2(short, BEA, DEMO_PASSWORD);
      const since = new Date();
      const submitted = await api(short, admin.browser, 'POST', '/users', { traits: { email: BEA } });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
      const { id, expiresAt } = submitted.body.invitation as { id: string; expiresAt: string };
      expect(Date.parse(expiresAt) - since.getTime()).toBeLessThanOrEqual(3_000 + 1_000);
      expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(since.getTime() + 3_000);
      expect((await api(short, person.browser, 'GET', '/users/whoami')).body.invitations).toHaveLength(1);

      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now()) + 500));
      const me = await api(short, person.browser, 'GET', '/users/whoami');
      expect(me.body.invitations).toEqual([]);
      const late = await api(short, person.browser, 'POST', `/invitations/${id}/accept`);
      expect([late.status, late.body?.error?.id]).toEqual([404, 'invitation_not_found']);
      const beaId = me.body.identity.id as string;
      expect((await api(short, admin.browser, 'GET', '/users')).body.map((u: { id: string }) => u.id)).not.toContain(
        beaId,
      );
      expect(await relationTuples(short, { namespace: 'organizations', object: 'dego', subject_id: beaId })).toEqual(
        [],
      );
      const log = await auditEntries(short, admin.browser);
      expect(log.filter((e) => e.action === 'invitation.expire')).toEqual([
        expect.objectContaining({ objectEmail: BEA, organisationId: 'dego', result: 'success' }),
      ]);
    } finally {
      await short.stop();
    }
  });
});
