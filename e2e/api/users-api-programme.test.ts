import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationRequest, discoverClient, followWhileOnPortal } from '../support/oidc-relying-party.js';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { uniqueEmail } from '../support/identities.js';
import {
  DEMO_PASSWORD,
  api,
  createMember,
  databaseSnapshot,
  portaalCommand,
  relationTuples,
  signInAtAal1,
  signInAtAal2,
  writeTuple,
  type Person,
} from '../support/portal-users.js';

// 'Programmabeheer' on a running portaal: SQLite, PostgreSQL, and the Ory adapter (scripts/integration.mjs). The
// operator makes a programme administrator with the CLI; only they, at aal2, reach `/api/programme/…`; they add an
// organisation and invite its first administrator, whose mail arrives; they give the role to a colleague over the API,
// who takes it back from herself; the CLI takes the role back.

const PASSWORD = 'Programma-Raad-Kaart-31';

let portaal: Deployment;
let staff: Person;
let bea: Person;
let staffEmail: string;

beforeAll(async () => {
  portaal = await startDeployment({ args: ['--demo'] });
  staffEmail = uniqueEmail('programma');
  await createMember(portaal, { email: staffEmail, password: PASSWORD, org: 'dego', first: 'Pim' });
  const granted = await portaalCommand(portaal, ['programme-admin', 'add', '--email', staffEmail], 'portal');
  expect(granted.status, granted.stderr).toBe(0);
  expect(granted.stdout).toContain(`${staffEmail} is programmabeheerder.`);
  staff = await signInAtAal2(portaal, staffEmail, PASSWORD);
  bea = await signInAtAal2(portaal, 'beheerder@voorbeeldstad.nl', DEMO_PASSWORD);
});

afterAll(() => portaal?.stop());

describe('Programmabeheer over the API', () => {
  it('is for programme administrators only; whoami says who is one', async () => {
    expect((await api(portaal, bea.browser, 'GET', '/programme/organisations')).status).toBe(403);
    expect((await api(portaal, bea.browser, 'GET', '/users/whoami')).body.isProgrammeAdmin).toBe(false);
    expect((await api(portaal, staff.browser, 'GET', '/users/whoami')).body.isProgrammeAdmin).toBe(true);
    const listed = await api(portaal, staff.browser, 'GET', '/programme/organisations');
    expect(listed.status).toBe(200);
    expect(listed.body.organisations.find((o: { id: string }) => o.id === 'voorbeeldstad')).toMatchObject({
      label: 'Gemeente Voorbeeldstad',
      administrators: expect.any(Number),
    });
  });

  it('adds an organisation and invites its first administrator by mail', async () => {
    const id = `stad-${Date.now().toString(36)}`;
    const created = await api(portaal, staff.browser, 'POST', '/programme/organisations', {
      id,
      label: 'Gemeente Nieuwstad',
      requiresAal2: true,
    });
    expect(created.status).toBe(201);
    const before = await databaseSnapshot(portaal);
    const again = await api(portaal, staff.browser, 'POST', '/programme/organisations', {
      id,
      label: 'Dubbel',
      requiresAal2: false,
    });
    expect([again.status, again.body.error.id]).toEqual([409, 'organisation_exists']);
    expect(await databaseSnapshot(portaal)).toBe(before);

    const email = uniqueEmail('eerste-beheerder');
    const invited = await api(portaal, staff.browser, 'POST', `/programme/organisations/${id}/administrators`, {
      traits: { email, name: { first: 'Eva', last: 'Eerste' } },
    });
    expect(invited.status).toBe(201);
    const mail = await portaal.mail.waitFor(email);
    expect(mail.text).toContain('Gemeente Nieuwstad');
    const listed = await api(portaal, staff.browser, 'GET', '/programme/organisations');
    expect(listed.body.organisations.find((o: { id: string }) => o.id === id)).toMatchObject({
      members: 1,
      administrators: 1,
      pendingInvitations: 1,
      lastSignIn: null,
    });
  });

  it('adds a data role, and retiring it takes it from whoever holds it', async () => {
    const added = await api(portaal, staff.browser, 'POST', '/programme/organisations/dego/data-roles', {
      id: 'tijdelijk',
      label: 'Tijdelijke rol',
    });
    expect(added.status).toBe(201);
    const holder = await createMember(portaal, { email: uniqueEmail('rolhouder'), password: PASSWORD, org: 'dego' });
    await writeTuple(portaal.adminUrl, 'PUT', {
      namespace: 'subdivisions',
      object: 'tijdelijk_dego',
      relation: 'issuer',
      subject_id: holder,
    });
    const retired = await api(portaal, staff.browser, 'DELETE', '/programme/organisations/dego/data-roles/tijdelijk');
    expect([retired.status, retired.body.holders]).toEqual([200, 1]);
    expect(await relationTuples(portaal, { namespace: 'subdivisions', object: 'tijdelijk_dego' })).toEqual([]);
    expect(retired.body.organisation.dataRoles.map((r: { id: string }) => r.id)).not.toContain('tijdelijk');
  });

  // The provider reads the portal's own session; the Ory run has the API part of this in the tests above.
  it.skipIf(process.env.TEST_IDENTITY_BACKEND === 'ory')(
    'a service added with a client signs a member in with its one-time secret; a rotation ends the old one',
    async () => {
      const id = `dienst-${Date.now().toString(36)}`;
      const callback = 'http://127.0.0.1:9/callback';
      const created = await api(portaal, staff.browser, 'POST', '/programme/services', {
        id,
        name: 'Testdienst',
        url: 'http://127.0.0.1:9',
        access: { organisations: ['dego'] },
        forwardAuth: false,
        oidc: { clientId: id, redirectUris: [callback] },
      });
      expect(created.status).toBe(201);
      const secret = created.body.clientSecret as string;
      const email = uniqueEmail('dienstgebruiker');
      await createMember(portaal, { email, password: PASSWORD, org: 'dego' });
      const member = await signInAtAal1(portaal, email, PASSWORD);
      const config = await discoverClient(portaal.publicUrl, id, secret);
      const { url, verifier, state } = await authorizationRequest(config, callback);
      const back = await followWhileOnPortal(portaal.publicUrl, member.browser, url.href);
      const tokens = await client.authorizationCodeGrant(config, back, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      expect(tokens.claims()?.email).toBe(email);
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);

      // Rotated without an overlap: the old secret is refused at once, the new one works.
      const rotated = await api(portaal, staff.browser, 'POST', `/programme/services/${id}/client-secret`, {
        overlapHours: 0,
      });
      expect(rotated.status).toBe(200);
      const refused = await client.refreshTokenGrant(config, refreshed.refresh_token!).catch((error: unknown) => error);
      // Client authentication in the Authorization header fails with a challenge (RFC 6749 5.2).
      expect(refused).toMatchObject({ status: 401, cause: [{ parameters: { error: 'invalid_client' } }] });
      const renewed = await discoverClient(portaal.publicUrl, id, rotated.body.clientSecret);
      expect((await client.refreshTokenGrant(renewed, refreshed.refresh_token!)).access_token).toBeTruthy();
    },
  );

  it('a programme administrator gives the role to a colleague, who may then take it back', async () => {
    const colleague = uniqueEmail('collega');
    await createMember(portaal, { email: colleague, password: PASSWORD, org: 'dego', first: 'Noor' });
    const granted = await api(portaal, staff.browser, 'POST', '/programme/administrators', { email: colleague });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
    const noor = await signInAtAal2(portaal, colleague, PASSWORD);
    const listed = await api(portaal, noor.browser, 'GET', '/programme/administrators');
    expect(listed.body.administrators.map((a: { email: string }) => a.email)).toEqual(
      expect.arrayContaining([colleague, staffEmail]),
    );
    expect((await api(portaal, noor.browser, 'DELETE', `/programme/administrators/${granted.body.id}`)).status).toBe(
      204,
    );
    expect((await api(portaal, noor.browser, 'GET', '/programme/organisations')).status).toBe(403);
  });

  it('the CLI lists the programme administrators and takes the role back', async () => {
    expect((await portaalCommand(portaal, ['programme-admin', 'list'], 'portal')).stdout).toContain(staffEmail);
    const removed = await portaalCommand(portaal, ['programme-admin', 'remove', '--email', staffEmail], 'portal');
    expect(removed.status, removed.stderr).toBe(0);
    expect((await api(portaal, staff.browser, 'GET', '/programme/organisations')).status).toBe(403);
    const unknown = await portaalCommand(
      portaal,
      ['programme-admin', 'add', '--email', 'niemand@nergens.nl'],
      'portal',
    );
    expect([unknown.status, unknown.stderr]).toEqual([
      1,
      "Er is geen account met niemand@nergens.nl. Maak het eerst aan met 'portaal user create'.\n",
    ]);
  });
});
