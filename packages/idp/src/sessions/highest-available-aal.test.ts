import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createIdentityWithPassword } from '../identities/create-identity.js';
import { saveCredential } from '../identities/identity-repository.js';
import { createIdentityProvider, type IdentityProvider } from '../provider.js';
import { testIdpConfig } from '../test-config.js';
import type { AuthenticationMethod } from './aal.js';
import { insertSession } from './session-repository.js';

// The attack: a person whose only second factor is a security key signs in with the password (or a passkey) alone,
// and whoami, the sessions list and settings take that aal1 session, so the second factor the organisation asked for
// is never used. Kratos' `highest_available` counts every kind of second factor: an authenticator app, backup codes
// and a security key (a `webauthn` key that is not passwordless); a passkey and a passwordless key are first factors
// (docs/kratos-compatibility.md#assurance-levels). Every gate answers from one rule, `availableAal` in aal.ts, also
// whoami's one-statement lookup; this table runs each combination against the provider in-process on SQLite.

const key = (n: number, passwordless: boolean) => ({
  id: Buffer.from(`key-${n}`).toString('base64'),
  public_key: Buffer.from(`public-key-${n}`).toString('base64'),
  attestation_type: 'none',
  authenticator: { aaguid: 'AAAAAAAAAAAAAAAAAAAAAA==', sign_count: 0, clone_warning: false },
  display_name: `Sleutel ${n}`,
  added_at: '2026-11-26T09:00:00.000Z',
  is_passwordless: passwordless,
});
const keys = (...list: ReturnType<typeof key>[]) => ({ credentials: list, user_handle: 'aGFuZGxl' });

const FACTORS = {
  app: ['totp', { totp_url: 'otpauth://totp/portaal.test:anne?secret=JBSWY3DPEHPK3PXP' }],
  backupCodes: ['lookup_secret', { recovery_codes: [{ code: 'abcd1234' }, { code: 'efgh5678', used_at: 'x' }] }],
  securityKey: ['webauthn', keys(key(1, false))],
} as const;
type Factor = keyof typeof FACTORS;
// The method a completed second step of each kind leaves in the session.
const SECOND_STEP: Record<Factor, string> = { app: 'totp', backupCodes: 'lookup_secret', securityKey: 'webauthn' };

const configured: [string, Factor[]][] = [
  ['no second factor', []],
  ['an authenticator app', ['app']],
  ['backup codes', ['backupCodes']],
  ['a security key', ['securityKey']],
  ['an app and a security key', ['app', 'securityKey']],
  ['an app, backup codes and a security key', ['app', 'backupCodes', 'securityKey']],
];
const firstFactors = ['password', 'passkey'] as const;

let provider: IdentityProvider;
let app: FastifyInstance;
// The same provider with `session.whoami.required_aal: aal1`.
let relaxedProvider: IdentityProvider;
let relaxedApp: FastifyInstance;
let people = 0;

async function publicApi(whoamiRequiredAal: 'highest_available' | 'aal1') {
  const db = openDatabase(':memory:');
  await migrateToLatest(db);
  const config = { ...testIdpConfig(), whoamiRequiredAal };
  const instance = createIdentityProvider({ db, config, clock: { now: () => new Date() }, log: Fastify().log });
  const server = Fastify();
  await server.register(cookie);
  instance.registerListenerErrorHandling(server);
  await server.register(instance.publicApi);
  return { instance, server };
}

beforeAll(async () => {
  ({ instance: provider, server: app } = await publicApi('highest_available'));
  ({ instance: relaxedProvider, server: relaxedApp } = await publicApi('aal1'));
});

afterAll(async () => {
  for (const server of [app, relaxedApp]) await server.close();
  for (const instance of [provider, relaxedProvider]) await instance.services.ctx.db.close();
});

/** A person with a password, a passkey when `first` is one, the `factors` given, and a session of `methods`. */
async function personWithSession(target: IdentityProvider, factors: Factor[], first: string, secondStep?: Factor) {
  const { db, clock } = target.services.ctx;
  people += 1;
  const identityId = await createIdentityWithPassword(target.services, { email: `p${people}@voorbeeldstad.nl` });
  if (first === 'passkey') await saveCredential(db.kysely, clock, identityId, 'passkey', keys(key(9, true)), []);
  for (const factor of factors) {
    const [type, config] = FACTORS[factor];
    await saveCredential(db.kysely, clock, identityId, type, structuredClone(config) as Record<string, unknown>, []);
  }
  const now = new Date().toISOString();
  const methods: AuthenticationMethod[] = [{ method: first, aal: 'aal1', completed_at: now }];
  if (secondStep) methods.push({ method: SECOND_STEP[secondStep], aal: 'aal2', completed_at: now });
  const { token } = await insertSession(db.kysely, clock, {
    identityId,
    methods,
    lifespanMs: 3_600_000,
    ipAddress: '127.0.0.1',
    userAgent: 'vitest',
  });
  return token;
}

/** What whoami, the sessions list and a new settings flow answer for the session: status and error id. */
async function gates(server: FastifyInstance, token: string) {
  const answer = async (url: string) => {
    const response = await server.inject({ url, headers: { 'x-session-token': token, accept: 'application/json' } });
    return `${response.statusCode} ${response.statusCode === 200 ? '' : response.json().error?.id}`.trim();
  };
  return {
    whoami: await answer('/sessions/whoami'),
    sessions: await answer('/sessions'),
    settings: await answer('/self-service/settings/api'),
  };
}

const PASS = { whoami: '200', sessions: '200', settings: '200' };
const AAL2_REQUIRED = '403 session_aal2_required';
const REFUSED = { whoami: AAL2_REQUIRED, sessions: AAL2_REQUIRED, settings: AAL2_REQUIRED };

describe('highest_available over every kind of second factor', () => {
  for (const first of firstFactors) {
    for (const [name, factors] of configured) {
      it(`signed in with a ${first}, ${name}: aal1 ${factors.length ? 'is refused' : 'passes'}`, async () => {
        const token = await personWithSession(provider, factors, first);
        expect(await gates(app, token), `an aal1 session with ${name}`).toEqual(factors.length ? REFUSED : PASS);
      });

      for (const step of factors) {
        it(`signed in with a ${first}, ${name}: aal2 through ${SECOND_STEP[step]} passes`, async () => {
          const token = await personWithSession(provider, factors, first, step);
          expect(await gates(app, token)).toEqual(PASS);
        });
      }

      it(`signed in with a ${first}, ${name}: whoami passes at aal1 under required_aal aal1`, async () => {
        const token = await personWithSession(relaxedProvider, factors, first);
        expect((await gates(relaxedApp, token)).whoami).toBe('200');
      });
    }
  }

  it.each([
    ['a passkey', 'passkey', keys(key(2, true))],
    ['a webauthn key registered for passwordless sign-in', 'webauthn', keys(key(3, true))],
    ['a webauthn credential without keys', 'webauthn', keys()],
    ['an empty list of backup codes', 'lookup_secret', { recovery_codes: [] }],
  ] as const)('takes %s for no second factor: aal1 passes', async (_name, type, config) => {
    const token = await personWithSession(provider, [], 'password');
    const { db, clock } = provider.services.ctx;
    const session = await app.inject({ url: '/sessions/whoami', headers: { 'x-session-token': token } });
    await saveCredential(db.kysely, clock, session.json().identity.id, type, structuredClone(config), []);
    expect(await gates(app, token)).toEqual(PASS);
  });

  it('counts a security key added to a passwordless one: aal1 is refused', async () => {
    const token = await personWithSession(provider, [], 'password');
    const { db, clock } = provider.services.ctx;
    const session = await app.inject({ url: '/sessions/whoami', headers: { 'x-session-token': token } });
    const config = keys(key(4, true), key(5, false));
    await saveCredential(db.kysely, clock, session.json().identity.id, 'webauthn', config, []);
    expect(await gates(app, token)).toEqual(REFUSED);
  });
});
