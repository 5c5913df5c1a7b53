import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdentityWithPassword } from '../identities/create-identity.js';
import {
  IDENTITY_TABLES,
  inProcessProvider,
  type InProcessProvider,
  passwordSession,
  storedRows,
} from '../test-provider.js';

// Every refusal of the admin API's identity writes leaves the whole stored state as it was: identities, addresses,
// credentials and their identifiers, sessions and mail (docs/architecture.md#writes-that-belong-together). Kratos
// answers an e-mail address of another identity with 409 on create, update and patch.

let inProcess: InProcessProvider;
let app: FastifyInstance;
let anne: string;
let bob: string;

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

beforeEach(async () => {
  inProcess = await inProcessProvider();
  const { services } = inProcess.provider;
  anne = await createIdentityWithPassword(services, {
    email: 'anne@voorbeeldstad.nl',
    password: 'een lang wachtwoord',
  });
  bob = await createIdentityWithPassword(services, { email: 'bob@voorbeeldstad.nl', password: 'nog een wachtwoord' });
  for (const identityId of [anne, bob]) await passwordSession(inProcess, identityId);
  app = await inProcess.listener('adminApi');
});

afterEach(() => inProcess.close());

const stored = () => storedRows(inProcess.db, IDENTITY_TABLES);

/** Anne as a PUT sends her (the admin API's answer, only the fields an update takes), changed by `change`. */
async function anneWith(change: (identity: Record<string, unknown>) => void) {
  const shown = (await app.inject({ url: `/admin/identities/${anne}` })).json();
  const identity: Record<string, unknown> = { schema_id: shown.schema_id, traits: shown.traits, state: shown.state };
  change(identity);
  return identity;
}

/** The answer to a call, and that it changed nothing that is stored. */
async function refused(call: () => Promise<{ statusCode: number; json(): { error: { reason?: string } } }>) {
  const before = await stored();
  const answer = await call();
  expect(await stored()).toEqual(before);
  return [answer.statusCode, answer.json().error.reason];
}

describe("the admin API's identity writes refuse", () => {
  it("another identity's e-mail address with 409 on create, update and patch, writing nothing", async () => {
    const conflict = [409, 'This identity conflicts with another identity that already exists.'];
    const create = {
      schema_id: 'default',
      traits: { email: ' Bob@Voorbeeldstad.nl ', name: { first: 'B', last: 'C' } },
      credentials: { password: { config: { password: 'een ander wachtwoord' } } },
    };
    expect(await refused(() => app.inject({ method: 'POST', url: '/admin/identities', payload: create }))).toEqual(
      conflict,
    );
    // With a new password and a block beside the address, so that every write of the update is tried.
    const put = await anneWith((identity) => {
      identity.traits = { email: 'BOB@voorbeeldstad.nl', name: { first: 'Anne', last: 'Anders' } };
      identity.state = 'inactive';
      identity.credentials = { password: { config: { password: 'een nieuw wachtwoord' } } };
    });
    const url = `/admin/identities/${anne}`;
    expect(await refused(() => app.inject({ method: 'PUT', url, payload: put }))).toEqual(conflict);
    const patch = [
      { op: 'replace', path: '/traits/email', value: 'bob@voorbeeldstad.nl' },
      { op: 'replace', path: '/state', value: 'inactive' },
    ];
    expect(await refused(() => app.inject({ method: 'PATCH', url, payload: patch }))).toEqual(conflict);
  });

  it('an unknown identity with 404, writing nothing', async () => {
    const url = `/admin/identities/${UNKNOWN}`;
    const put = await anneWith((identity) => {
      identity.traits = { email: 'nieuw@voorbeeldstad.nl', name: {} };
    });
    const patch = [{ op: 'replace', path: '/state', value: 'inactive' }];
    for (const call of [
      () => app.inject({ method: 'PUT', url, payload: put }),
      () => app.inject({ method: 'PATCH', url, payload: patch }),
      () => app.inject({ method: 'DELETE', url }),
      () => app.inject({ method: 'DELETE', url: `${url}/credentials/totp` }),
      () => app.inject({ method: 'DELETE', url: `/admin/identities/${anne}/credentials/totp` }),
    ])
      expect((await refused(call))[0]).toBe(404);
  });

  it('a body that passes the schema but not the rules with 400, writing nothing', async () => {
    const url = `/admin/identities/${anne}`;
    const badAddress = await anneWith((identity) => {
      identity.traits = { email: 'geen-adres', name: {} };
      identity.state = 'inactive';
    });
    const badHash = await anneWith((identity) => {
      identity.state = 'inactive';
      identity.credentials = { password: { config: { hashed_password: 'geen hash' } } };
    });
    const calls = [
      () => app.inject({ method: 'PUT', url, payload: badAddress }),
      () => app.inject({ method: 'PUT', url, payload: badHash }),
      () =>
        app.inject({
          method: 'PATCH',
          url,
          payload: [
            { op: 'replace', path: '/traits/email', value: 'nieuw@voorbeeldstad.nl' },
            { op: 'replace', path: '/state', value: 'weg' },
          ],
        }),
      () =>
        app.inject({
          method: 'PATCH',
          url,
          payload: [
            { op: 'replace', path: '/state', value: 'inactive' },
            { op: 'replace', path: '/traits/email', value: 'geen-adres' },
          ],
        }),
      () =>
        app.inject({
          method: 'PATCH',
          url,
          payload: [
            { op: 'replace', path: '/state', value: 'inactive' },
            { op: 'replace', path: '/id', value: UNKNOWN },
          ],
        }),
    ];
    for (const call of calls) expect((await refused(call))[0]).toBe(400);
  });

  it('nothing that is allowed: the same changes with a free address are written, the sessions revoked', async () => {
    const before = await stored();
    const payload = [
      { op: 'replace', path: '/traits/email', value: 'anne.anders@voorbeeldstad.nl' },
      { op: 'replace', path: '/state', value: 'inactive' },
    ];
    const answer = await app.inject({ method: 'PATCH', url: `/admin/identities/${anne}`, payload });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      state: 'inactive',
      traits: { email: 'anne.anders@voorbeeldstad.nl' },
      recovery_addresses: [{ value: 'anne.anders@voorbeeldstad.nl' }],
    });
    const after = await stored();
    const active = (rows: unknown[] = []) => rows.filter((row) => String(row).includes('"active":1')).length;
    expect(active(after.sessions)).toBe(active(before.sessions) - 1);
    expect(after.identity_credential_identifiers).toContainEqual(
      expect.stringContaining('"identifier":"anne.anders@voorbeeldstad.nl"'),
    );
    expect(bob).toBeDefined();
  });
});

describe("the admin API's create imports credentials as Kratos v26 does", () => {
  const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  const app2fa =
    'otpauth://totp/portaal:carla@voorbeeldstad.nl?algorithm=SHA1&digits=6&issuer=portaal&period=30' +
    `&secret=${SECRET}`;
  const carla = (credentials: Record<string, unknown>) => ({
    schema_id: 'default',
    traits: { email: 'carla@voorbeeldstad.nl', name: { first: 'Carla', last: 'Jansen' } },
    credentials,
  });

  it('an authenticator app and backup codes, a used code kept used and codes in lower case', async () => {
    const codes = [
      { code: 'Aaaa1111', used_at: '2025-05-12T07:41:09Z' },
      { code: 'bbbb2222', used_at: null },
      { code: 'cccc3333' },
    ];
    const created = await app.inject({
      method: 'POST',
      url: '/admin/identities',
      payload: carla({ totp: { config: { totp_url: app2fa } }, lookup_secret: { config: { codes } } }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const shown = (
      await app.inject({ url: `/admin/identities/${id}?include_credential=totp&include_credential=lookup_secret` })
    ).json();
    expect(shown.credentials.totp.config).toEqual({ totp_url: app2fa });
    expect(shown.credentials.lookup_secret.config.recovery_codes).toEqual([
      { code: 'aaaa1111', used_at: '2025-05-12T07:41:09.000Z' },
      { code: 'bbbb2222' },
      { code: 'cccc3333' },
    ]);
  });

  it('refuses an app the portal cannot check and codes without a code, writing nothing', async () => {
    const sha256 = app2fa.replace('SHA1', 'SHA256');
    for (const credentials of [
      { totp: { config: { totp_url: sha256 } } },
      { totp: { config: { totp_url: 'https://example.nl/?secret=X' } } },
      { lookup_secret: { config: { codes: [] } } },
      { lookup_secret: { config: { codes: [{ used_at: null }] } } },
    ]) {
      const [status] = await refused(() =>
        app.inject({ method: 'POST', url: '/admin/identities', payload: carla(credentials) }),
      );
      expect(status, JSON.stringify(credentials)).toBe(400);
    }
  });
});
