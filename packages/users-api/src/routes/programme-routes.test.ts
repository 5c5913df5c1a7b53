import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserIdentity } from '../ports.js';
import { validSecretHashes } from '../oidc/client-secret-store.js';
import { hashClientSecret } from '../oidc/oidc-clients.js';
import { programmeAdminTuple } from '../programme/programme-role.js';
import { CALLER_HEADER, METHODS_HEADER, type InProcessApi, inProcessUsersApi } from '../test-support/in-process-api.js';

// 'Programmabeheer' over the mounted Users API (Fastify inject, a migrated in-memory database): only a programme
// administrator at aal2 reaches it; organisations are added, renamed and their rule changed, each change audited and
// in force at once; refusals write nothing; the first administrator of a new organisation is invited by mail.

let api: InProcessApi;
let programmeAdmin: UserIdentity;
let orgAdmin: UserIdentity;

const member = (org: string, relation = 'issuer') => ({ namespace: 'organizations', object: org, relation });

beforeEach(async () => {
  api = await inProcessUsersApi();
  // Programme staff need not belong to any organisation.
  programmeAdmin = await api.person('programma@datavoorzieningen.nl', 'voorbeeldstad', []);
  await api.ctx.backend.relations.patch({ insert: [programmeAdminTuple(programmeAdmin.id)] });
  orgAdmin = await api.person('beheerder@voorbeeldstad.nl', 'voorbeeldstad', [
    member('voorbeeldstad'),
    member('voorbeeldstad', 'admin'),
  ]);
});

afterEach(() => api.close());

interface Summary {
  id: string;
  label: string;
  requiresAal2: boolean;
  members: number;
  administrators: number;
  pendingInvitations: number;
  lastSignIn: string | null;
}

const auditEntries = async () => {
  const entries = [];
  for await (const entry of api.ctx.audit.all()) entries.push(entry);
  return entries;
};

const organisations = async () => {
  const answer = await api.call(programmeAdmin, 'GET', '/api/programme/organisations');
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { organisations: Summary[] }).organisations;
};

/** Stored rows before and after a call that must be refused; only 'denied' audit entries may be added. */
async function refusedWithoutWrites(call: () => ReturnType<InProcessApi['call']>) {
  const before = await api.stored();
  const answer = await call();
  const after = await api.stored();
  const { audit_log: auditBefore = [], ...restBefore } = before;
  const { audit_log: auditAfter = [], ...restAfter } = after;
  expect(restAfter).toEqual(restBefore);
  for (const row of auditAfter.filter((r) => !auditBefore.includes(r))) expect(row).toContain('"result":"denied"');
  return { status: answer.statusCode, id: (answer.json() as { error: { id: string } }).error.id };
}

describe('Programmabeheer: who may', () => {
  it('refuses an organisation administrator, a person without a session, and a programme admin at aal1', async () => {
    const create = { id: 'nieuwstad', label: 'Gemeente Nieuwstad', requiresAal2: true };
    expect(
      await refusedWithoutWrites(() => api.call(orgAdmin, 'POST', '/api/programme/organisations', create)),
    ).toEqual({ status: 403, id: 'forbidden_not_programme_admin' });
    expect(await refusedWithoutWrites(() => api.call(undefined, 'GET', '/api/programme/organisations'))).toEqual({
      status: 401,
      id: 'session_inactive',
    });
    const atAal1 = () =>
      api.app.inject({
        method: 'GET',
        url: '/api/programme/organisations',
        headers: { [CALLER_HEADER]: programmeAdmin.id, [METHODS_HEADER]: 'password', origin: api.publicUrl.origin },
      });
    expect(await refusedWithoutWrites(atAal1)).toEqual({ status: 403, id: 'session_aal2_required' });
  });

  it('records who was refused', async () => {
    await api.call(orgAdmin, 'GET', '/api/programme/organisations');
    const entries = (await auditEntries()).filter((e) => e.action === 'programme.organisation.list');
    expect(entries.map((e) => [e.actorEmail, e.result])).toEqual([['beheerder@voorbeeldstad.nl', 'denied']]);
  });

  it('an organisation administrator cannot give themselves the role through the users API', async () => {
    const self = { namespace: 'programme', object: 'portaal', relation: 'admin', subject_id: orgAdmin.id };
    const answer = await refusedWithoutWrites(() =>
      api.call(orgAdmin, 'PUT', `/api/permissions/${orgAdmin.id}`, [self]),
    );
    expect(answer.status).toBe(403);
    expect((await api.call(orgAdmin, 'GET', '/api/users/whoami')).json()).toMatchObject({ isProgrammeAdmin: false });
  });
});

describe('Programmabeheer: organisations', () => {
  it('lists every organisation with its members, administrators, open invitations and last sign-in', async () => {
    await api.ctx.lastSignIns.record(orgAdmin.id, new Date('2026-11-20T08:05:00.000Z'));
    const listed = await organisations();
    expect(listed.find((o) => o.id === 'voorbeeldstad')).toEqual({
      id: 'voorbeeldstad',
      label: 'Gemeente Voorbeeldstad',
      requiresAal2: true,
      active: true,
      dataRoles: expect.arrayContaining([{ id: 'sociaal-domein', label: 'Sociaal domein', holders: 0 }]),
      members: 1,
      administrators: 1,
      pendingInvitations: 0,
      lastSignIn: '2026-11-20T08:05:00.000Z',
    });
    expect(listed.map((o) => o.id)).toEqual((await api.ctx.catalogue.current()).organisations.map((o) => o.id));
  });

  it('adds an organisation, in force at once and audited in its own log', async () => {
    const answer = await api.call(programmeAdmin, 'POST', '/api/programme/organisations', {
      id: 'nieuwstad',
      label: ' Gemeente Nieuwstad ',
      requiresAal2: false,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({ id: 'nieuwstad', label: 'Gemeente Nieuwstad', members: 0, lastSignIn: null });
    const org = (await api.ctx.catalogue.current()).organisations.find((o) => o.id === 'nieuwstad');
    expect(org).toEqual({
      id: 'nieuwstad',
      label: 'Gemeente Nieuwstad',
      requiresAal2: false,
      active: true,
      dataRoles: [],
    });
    const entries = await api.ctx.audit.list('nieuwstad', { size: 10 });
    expect(entries.map((e) => [e.action, e.actorEmail, e.result, e.details])).toEqual([
      [
        'programme.organisation.create',
        'programma@datavoorzieningen.nl',
        'success',
        { label: 'Gemeente Nieuwstad', requiresAal2: false },
      ],
    ]);
  });

  it('refuses a taken id, a bad id and an empty name, writing nothing', async () => {
    const post = (body: object) => () => api.call(programmeAdmin, 'POST', '/api/programme/organisations', body);
    expect(await refusedWithoutWrites(post({ id: 'voorbeeldstad', label: 'Dubbel', requiresAal2: true }))).toEqual({
      status: 409,
      id: 'organisation_exists',
    });
    const badId = await api.call(programmeAdmin, 'POST', '/api/programme/organisations', {
      id: 'Nieuw_Stad',
      label: 'Gemeente Nieuwstad',
      requiresAal2: true,
    });
    expect([badId.statusCode, badId.json().error.message]).toEqual([
      400,
      'Gebruik voor de code alleen kleine letters, cijfers en koppeltekens, hoogstens 64 tekens.',
    ]);
    expect(await refusedWithoutWrites(post({ id: 'nieuwstad', label: '  ', requiresAal2: true }))).toEqual({
      status: 400,
      id: 'invalid_request',
    });
  });

  it('renames an organisation and changes its second-factor rule; an unknown one is 404', async () => {
    const answer = await api.call(programmeAdmin, 'PATCH', '/api/programme/organisations/dijkstad', {
      label: 'Gemeente Dijkstad-Noord',
      requiresAal2: false,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const org = (await api.ctx.catalogue.current()).organisations.find((o) => o.id === 'dijkstad');
    expect([org?.label, org?.requiresAal2]).toEqual(['Gemeente Dijkstad-Noord', false]);
    const unknown = () =>
      api.call(programmeAdmin, 'PATCH', '/api/programme/organisations/nergensstad', { label: 'Nergens' });
    expect(await refusedWithoutWrites(unknown)).toEqual({ status: 404, id: 'organisation_not_found' });
    const nothing = () => api.call(programmeAdmin, 'PATCH', '/api/programme/organisations/dijkstad', {});
    expect(await refusedWithoutWrites(nothing)).toEqual({ status: 400, id: 'invalid_request' });
  });

  it('invites the first administrator of a new organisation, who is then counted', async () => {
    await api.call(programmeAdmin, 'POST', '/api/programme/organisations', {
      id: 'nieuwstad',
      label: 'Gemeente Nieuwstad',
      requiresAal2: true,
    });
    const answer = await api.call(programmeAdmin, 'POST', '/api/programme/organisations/nieuwstad/administrators', {
      traits: { email: 'eerste@nieuwstad.nl', name: { first: 'Eva', last: 'Eerste' } },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const created = await api.ctx.backend.identities.findByEmail('eerste@nieuwstad.nl');
    const tuples = await api.ctx.backend.relations.list({ subject_id: created!.id });
    expect(tuples.map((t) => `${t.object}#${t.relation}`).sort()).toEqual(['nieuwstad#admin', 'nieuwstad#issuer']);
    expect((await organisations()).find((o) => o.id === 'nieuwstad')).toMatchObject({
      members: 1,
      administrators: 1,
      pendingInvitations: 1,
    });
    const mails = (await api.stored()).courier_messages as string[];
    expect(mails.some((row) => row.includes('eerste@nieuwstad.nl') && row.includes('Gemeente Nieuwstad'))).toBe(true);
    const unknown = () =>
      api.call(programmeAdmin, 'POST', '/api/programme/organisations/nergensstad/administrators', {
        traits: { email: 'iemand@nergensstad.nl', name: { first: 'Iemand', last: 'Anders' } },
      });
    expect(await refusedWithoutWrites(unknown)).toEqual({ status: 404, id: 'organisation_not_found' });
  });
});

describe('Programmabeheer: data roles', () => {
  const roles = async (orgId: string) => (await organisations()).find((o) => o.id === orgId)?.dataRoles;

  it('adds and renames a data role; a taken id is 409 and an unknown role 404, writing nothing', async () => {
    const added = await api.call(programmeAdmin, 'POST', '/api/programme/organisations/voorbeeldstad/data-roles', {
      id: 'onderwijs',
      label: 'Onderwijs',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(await roles('voorbeeldstad')).toContainEqual({ id: 'onderwijs', label: 'Onderwijs', holders: 0 });
    const again = () =>
      api.call(programmeAdmin, 'POST', '/api/programme/organisations/voorbeeldstad/data-roles', {
        id: 'onderwijs',
        label: 'Dubbel',
      });
    expect(await refusedWithoutWrites(again)).toEqual({ status: 409, id: 'data_role_exists' });
    const renamed = await api.call(
      programmeAdmin,
      'PATCH',
      '/api/programme/organisations/voorbeeldstad/data-roles/onderwijs',
      { label: 'Onderwijs en jeugd' },
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await roles('voorbeeldstad')).toContainEqual({ id: 'onderwijs', label: 'Onderwijs en jeugd', holders: 0 });
    const unknown = () =>
      api.call(programmeAdmin, 'PATCH', '/api/programme/organisations/voorbeeldstad/data-roles/toerisme', {
        label: 'Toerisme',
      });
    expect(await refusedWithoutWrites(unknown)).toEqual({ status: 404, id: 'data_role_not_found' });
  });

  it('retires a data role: gone from the catalogue, the access rules and everyone who held it', async () => {
    const holder = await api.person('anne@voorbeeldstad.nl', 'voorbeeldstad', [
      member('voorbeeldstad'),
      { namespace: 'subdivisions', object: 'sociaal-domein_voorbeeldstad', relation: 'issuer' },
    ]);
    expect(await roles('voorbeeldstad')).toContainEqual({ id: 'sociaal-domein', label: 'Sociaal domein', holders: 1 });
    const services = async () =>
      ((await api.call(holder, 'GET', '/api/services')).json() as { services: { id: string }[] }).services.map(
        (s) => s.id,
      );
    expect(await services()).toContain('jeugdzorg-dashboard');

    const retired = await api.call(
      programmeAdmin,
      'DELETE',
      '/api/programme/organisations/voorbeeldstad/data-roles/sociaal-domein',
    );
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json().holders).toBe(1);
    const catalogue = await api.ctx.catalogue.current();
    expect(catalogue.organisations.find((o) => o.id === 'voorbeeldstad')?.dataRoles.map((r) => r.id)).not.toContain(
      'sociaal-domein',
    );
    expect(catalogue.services.find((s) => s.id === 'jeugdzorg-dashboard')?.dataRoles).toEqual([
      'sociaal-domein_dijkstad',
    ]);
    expect(await api.ctx.backend.relations.list({ subject_id: holder.id, namespace: 'subdivisions' })).toEqual([]);
    expect(await services()).not.toContain('jeugdzorg-dashboard');
    const entries = await api.ctx.audit.list('voorbeeldstad', { size: 5 });
    expect(entries[0]).toMatchObject({
      action: 'programme.data_role.retire',
      details: { role: 'sociaal-domein', holders: 1 },
    });
    const gone = () =>
      api.call(programmeAdmin, 'DELETE', '/api/programme/organisations/voorbeeldstad/data-roles/sociaal-domein');
    expect(await refusedWithoutWrites(gone)).toEqual({ status: 404, id: 'data_role_not_found' });
  });

  it('an invitation that offered a retired data role is accepted without it', async () => {
    const guest = await api.person('gast@dijkstad.nl', 'dijkstad', [member('dijkstad')]);
    const invited = await api.call(orgAdmin, 'POST', '/api/users', {
      traits: { email: 'gast@dijkstad.nl' },
      permissions: [{ namespace: 'subdivisions', object: 'financien_voorbeeldstad', relation: 'issuer' }],
    });
    expect(invited.json()).toMatchObject({ invitation: { id: expect.any(String) } });
    await api.call(programmeAdmin, 'DELETE', '/api/programme/organisations/voorbeeldstad/data-roles/financien');
    const [invitation] = await api.ctx.invitations.ofIdentity(guest.id);
    const accepted = await api.call(guest, 'POST', `/api/invitations/${invitation!.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const tuples = await api.ctx.backend.relations.list({ subject_id: guest.id });
    expect(tuples.map((t) => `${t.namespace}:${t.object}`).sort()).toEqual([
      'organizations:dijkstad',
      'organizations:voorbeeldstad',
    ]);
  });
});

describe('Programmabeheer: data services', () => {
  const dashboard = {
    id: 'kaartviewer',
    name: 'Kaartviewer',
    description: 'Kaarten van de wijken.',
    url: 'https://kaart.voorbeeld.nl',
    access: { organisations: ['voorbeeldstad'], dataRoles: ['ruimte_voorbeeldstad'] },
    oidc: { clientId: 'kaartviewer', redirectUris: ['https://kaart.voorbeeld.nl/callback'] },
  };
  const create = (body: object) => api.call(programmeAdmin, 'POST', '/api/programme/services', body);

  it('adds a service with a confidential client: its secret is answered once and kept as a hash', async () => {
    const answer = await create(dashboard);
    expect(answer.statusCode, answer.body).toBe(201);
    const { service, clientSecret } = answer.json() as { service: { forwardAuth: boolean }; clientSecret: string };
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(service.forwardAuth).toBe(true);
    const stored = JSON.stringify(await api.stored());
    expect(stored).not.toContain(clientSecret);
    expect(await validSecretHashes(api.db.kysely, 'kaartviewer')).toEqual([hashClientSecret(clientSecret)]);
    const listed = (await api.call(programmeAdmin, 'GET', '/api/programme/services')).json() as {
      services: { id: string }[];
    };
    expect(listed.services.map((s) => s.id)).toContain('kaartviewer');
    // The same again is taken: 409, nothing written.
    expect(await refusedWithoutWrites(() => create(dashboard))).toEqual({ status: 409, id: 'service_exists' });
  });

  it("refuses an unknown data role and another service's client id with the screen's sentences", async () => {
    const unknownRole = await refusedWithoutWrites(() =>
      create({ ...dashboard, access: { dataRoles: ['toerisme_voorbeeldstad'] } }),
    );
    expect(unknownRole).toEqual({ status: 400, id: 'invalid_request' });
    const answer = await create({ ...dashboard, access: { dataRoles: ['toerisme_voorbeeldstad'] } });
    expect(answer.json().error).toMatchObject({
      reason: 'The data service is not valid at access.dataRoles[0].',
      message: 'Een gekozen organisatie of datarol bestaat niet (meer).',
    });
    await create(dashboard);
    const twice = await create({ ...dashboard, id: 'tweede', oidc: { ...dashboard.oidc } });
    expect(twice.json().error.message).toBe('Een andere datavoorziening gebruikt deze client-id al.');
    const badUrl = await create({ ...dashboard, id: 'derde', url: 'ftp://kaart' });
    expect(badUrl.json().error).toMatchObject({
      reason: 'The data service is not valid at url.',
      message: 'Vul een adres in dat begint met https:// of http://.',
    });
    // A field left out is said as the screen says it; one no screen field is about, in the library's Dutch words.
    const { name: _, ...withoutName } = dashboard;
    const missing = await create({ ...withoutName, id: 'vierde' });
    expect(missing.json().error.message).toBe('Vul een naam in van hoogstens 200 tekens, zonder onzichtbare tekens.');
    const wrongKind = await create({ ...dashboard, id: 'vijfde', forwardAuth: 'ja' });
    expect(wrongKind.json().error.message).toBe('forwardAuth: Ongeldige invoer: verwacht boolean, ontving string');
  });

  it('rotates the secret: the previous one stays valid for the overlap, then only the new one', async () => {
    const { clientSecret: first } = (await create(dashboard)).json() as { clientSecret: string };
    const rotated = await api.call(programmeAdmin, 'POST', '/api/programme/services/kaartviewer/client-secret', {
      overlapHours: 24,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { clientSecret: second, previousValidUntil } = rotated.json() as {
      clientSecret: string;
      previousValidUntil: string;
    };
    expect(second).not.toBe(first);
    expect(await validSecretHashes(api.db.kysely, 'kaartviewer')).toEqual([
      hashClientSecret(second),
      hashClientSecret(first),
    ]);
    const afterOverlap = new Date(Date.parse(previousValidUntil) + 1);
    expect(await validSecretHashes(api.db.kysely, 'kaartviewer', afterOverlap)).toEqual([hashClientSecret(second)]);
    const publicClient = {
      ...dashboard,
      id: 'open',
      oidc: { clientId: 'open', type: 'public', redirectUris: [dashboard.url] },
    };
    expect((await create(publicClient)).json().clientSecret).toBeUndefined();
    const noSecret = () => api.call(programmeAdmin, 'POST', '/api/programme/services/open/client-secret', {});
    expect(await refusedWithoutWrites(noSecret)).toEqual({ status: 409, id: 'no_client_secret' });
  });

  it('closes a service to forward authentication, and removes it with its secrets', async () => {
    await create({ ...dashboard, forwardAuth: false });
    const lid = await api.person('lid@voorbeeldstad.nl', 'voorbeeldstad', [member('voorbeeldstad')]);
    const asked = await api.call(lid, 'GET', '/api/forward-auth?service=kaartviewer');
    expect(asked.statusCode).toBe(404);
    const changed = await api.call(programmeAdmin, 'PUT', '/api/programme/services/kaartviewer', dashboard);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().clientSecret).toBeUndefined();
    expect((await api.call(lid, 'GET', '/api/forward-auth?service=kaartviewer')).statusCode).toBe(200);
    const removed = await api.call(programmeAdmin, 'DELETE', '/api/programme/services/kaartviewer');
    expect(removed.statusCode).toBe(204);
    expect(await validSecretHashes(api.db.kysely, 'kaartviewer')).toEqual([]);
    expect((await api.ctx.catalogue.current()).services.map((s) => s.id)).not.toContain('kaartviewer');
  });
});

describe('Programmabeheer: deactivating an organisation', () => {
  it('admits nobody to a data service through it until it is active again; nothing is deleted', async () => {
    const anne = await api.person('anne@voorbeeldstad.nl', 'voorbeeldstad', [
      member('voorbeeldstad'),
      { namespace: 'subdivisions', object: 'sociaal-domein_voorbeeldstad', relation: 'issuer' },
    ]);
    const dashboard = async () =>
      (await api.call(anne, 'GET', '/api/forward-auth?service=jeugdzorg-dashboard')).statusCode;
    const listed = async () =>
      ((await api.call(anne, 'GET', '/api/services')).json() as { services: unknown[] }).services.length;
    expect(await dashboard()).toBe(200);
    expect(await listed()).toBeGreaterThan(0);
    const tuplesBefore = await api.ctx.backend.relations.list({ subject_id: anne.id });

    const off = await api.call(programmeAdmin, 'PATCH', '/api/programme/organisations/voorbeeldstad', {
      active: false,
    });
    expect([off.statusCode, off.json().active]).toEqual([200, false]);
    expect(await dashboard()).toBe(403);
    expect(await listed()).toBe(0);
    expect(await api.ctx.backend.relations.list({ subject_id: anne.id })).toEqual(tuplesBefore);

    await api.call(programmeAdmin, 'PATCH', '/api/programme/organisations/voorbeeldstad', { active: true });
    expect(await dashboard()).toBe(200);
  });
});

describe('Programmabeheer: programme administrators', () => {
  const holders = async (caller = programmeAdmin) => {
    const answer = await api.call(caller, 'GET', '/api/programme/administrators');
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as { administrators: { email: string }[] }).administrators.map((a) => a.email);
  };
  const grant = (email: string, caller = programmeAdmin) =>
    api.call(caller, 'POST', '/api/programme/administrators', { email });
  const withdraw = (person: UserIdentity, caller = programmeAdmin) =>
    api.call(caller, 'DELETE', `/api/programme/administrators/${person.id}`);

  it('grants the role to an account by its address and withdraws it, audited; it counts at once', async () => {
    expect(await holders()).toEqual(['programma@datavoorzieningen.nl']);
    const granted = await grant(' Beheerder@Voorbeeldstad.nl ');
    expect(granted.statusCode, granted.body).toBe(201);
    expect(granted.json()).toMatchObject({ id: orgAdmin.id, email: 'beheerder@voorbeeldstad.nl' });
    expect(await holders(orgAdmin)).toEqual(['beheerder@voorbeeldstad.nl', 'programma@datavoorzieningen.nl']);

    expect((await withdraw(programmeAdmin, orgAdmin)).statusCode).toBe(204);
    expect((await api.call(programmeAdmin, 'GET', '/api/programme/administrators')).statusCode).toBe(403);
    const entries = (await auditEntries()).filter((e) => e.action.startsWith('programme.admin.'));
    expect(entries.map((e) => [e.action, e.actorEmail, e.objectEmail, e.result, e.organisationId])).toEqual([
      ['programme.admin.add', 'programma@datavoorzieningen.nl', 'beheerder@voorbeeldstad.nl', 'success', null],
      ['programme.admin.remove', 'beheerder@voorbeeldstad.nl', 'programma@datavoorzieningen.nl', 'success', null],
      ['programme.admin.list', 'programma@datavoorzieningen.nl', null, 'denied', null],
    ]);
  });

  it('refuses, writing nothing: a holder again, an unknown address, the last one, a non-holder, others', async () => {
    expect(await refusedWithoutWrites(() => grant('programma@datavoorzieningen.nl'))).toEqual({
      status: 409,
      id: 'programme_admin_exists',
    });
    expect(await refusedWithoutWrites(() => grant('niemand@voorbeeldstad.nl'))).toEqual({
      status: 404,
      id: 'identity_not_found',
    });
    expect(await refusedWithoutWrites(() => grant('geen adres'))).toEqual({ status: 400, id: 'invalid_request' });
    expect(await refusedWithoutWrites(() => withdraw(programmeAdmin))).toEqual({
      status: 409,
      id: 'last_programme_admin',
    });
    expect(await refusedWithoutWrites(() => withdraw(orgAdmin))).toEqual({
      status: 404,
      id: 'programme_admin_not_found',
    });
    expect(await refusedWithoutWrites(() => grant('beheerder@voorbeeldstad.nl', orgAdmin))).toEqual({
      status: 403,
      id: 'forbidden_not_programme_admin',
    });
    expect(await holders()).toEqual(['programma@datavoorzieningen.nl']);
  });
});
