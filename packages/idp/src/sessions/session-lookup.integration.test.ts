import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Clock } from '../clock.js';
import {
  deleteCredential,
  findCredentials,
  findIdentity,
  insertIdentity,
  saveCredential,
  updateIdentity,
} from '../identities/identity-repository.js';
import { availableAal } from './aal.js';
import {
  findSessionByToken,
  insertSession,
  RENEWED_TOKEN_GRACE_MS,
  renewSessionToken,
  revokeSession,
  upgradeSession,
} from './session-repository.js';
import { findSessionWithIdentity } from './session-lookup.js';

// The one-statement lookup is written once per dialect, so it runs on the database of the integration run: a SQLite
// file, or a fresh database on the throwaway PostgreSQL cluster of scripts/integration.mjs (TEST_DATABASE=postgres).
const postgresBase = process.env.TEST_DATABASE === 'postgres' ? process.env.TEST_POSTGRES_URL : undefined;
const databaseName = `portaal_lookup_${randomBytes(6).toString('hex')}`;

async function onServer(statement: string) {
  const client = new pg.Client({ connectionString: postgresBase });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A `webauthn` or `passkey` config with one key per flag (credentials/webauthn/credential-config.ts). */
const keysConfig = (...passwordless: boolean[]) => ({
  credentials: passwordless.map((flag, n) => ({
    id: Buffer.from(`key-${n}`).toString('base64'),
    public_key: Buffer.from(`public-key-${n}`).toString('base64'),
    is_passwordless: flag,
  })),
  user_handle: 'aGFuZGxl',
});

// It must give what the separate reads give, and its second-factor test the same answer as availableAal over the
// credentials (docs/kratos-compatibility.md#assurance-levels).
describe(`findSessionWithIdentity on ${postgresBase ? 'PostgreSQL' : 'SQLite'}`, () => {
  let db: Db;
  const warnings: string[] = [];
  let tick = Date.parse('2026-01-05T09:00:00.000Z');
  // Every reading a second later, so that addresses and credentials have distinct times.
  const clock: Clock = {
    now() {
      tick += 1000;
      return new Date(tick);
    },
  };

  let databaseUrl: string;
  let sqliteDir: string | undefined;

  beforeAll(async () => {
    if (postgresBase) {
      await onServer(`create database ${databaseName}`);
      const url = new URL(postgresBase);
      url.pathname = `/${databaseName}`;
      databaseUrl = url.toString();
    } else {
      sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portaal-lookup-'));
      databaseUrl = path.join(sqliteDir, 'portaal.sqlite');
    }
  });
  afterAll(async () => {
    if (postgresBase) await onServer(`drop database ${databaseName}`);
    if (sqliteDir) fs.rmSync(sqliteDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    db = openDatabase(databaseUrl, { warn: (_details, message) => warnings.push(message), info() {} });
    await migrateToLatest(db);
    // Each case starts empty, on both engines.
    await db.kysely.deleteFrom('identities').execute();
  });
  afterEach(() => db.close());

  async function personWithSession(email: string) {
    const identityId = await insertIdentity(db.kysely, clock, {
      traits: { email, name: { first: 'Anne', last: 'de Vries' } },
      metadataPublic: { team: 'noord' },
      metadataAdmin: { note: 'intern' },
    });
    const { token } = await insertSession(db.kysely, clock, {
      identityId,
      methods: [{ method: 'password', aal: 'aal1', completed_at: clock.now().toISOString() }],
      lifespanMs: 3_600_000,
      ipAddress: '127.0.0.1',
      userAgent: 'vitest',
    });
    return { identityId, token };
  }

  async function expectSameAsSeparateReads(token: string) {
    const session = await findSessionByToken(db.kysely, token);
    const identity = session && (await findIdentity(db.kysely, session.identityId));
    const credentials = identity ? await findCredentials(db.kysely, identity.id) : [];
    const found = await findSessionWithIdentity(db, token, clock.now());
    expect(found).toEqual({ session, identity, secondFactorAvailable: availableAal(credentials) === 'aal2' });
    return found;
  }

  it('finds nothing for an unknown token', async () => {
    await personWithSession('anne@voorbeeldstad.nl');
    expect(await findSessionWithIdentity(db, 'ory_st_unknown', clock.now())).toBeUndefined();
  });

  it('finds a session by a renewed token, and by the replaced one only within the grace window', async () => {
    const { token: first } = await personWithSession('anne@voorbeeldstad.nl');
    const session = (await findSessionWithIdentity(db, first, clock.now()))!.session;
    const renewedAt = tick;
    const second = await renewSessionToken(db.kysely, clock, session.id);
    expect(second).toMatch(/^ory_st_[A-Za-z0-9]{32}$/);
    expect(second).not.toBe(first);
    const at = (offset: number) => new Date(renewedAt + 1000 + offset);
    expect((await findSessionWithIdentity(db, second, at(0)))?.session.id).toBe(session.id);
    expect((await findSessionWithIdentity(db, second, at(0)))?.presentedTokenEndsAt).toBeUndefined();
    const byReplaced = await findSessionWithIdentity(db, first, at(RENEWED_TOKEN_GRACE_MS - 1));
    expect(byReplaced?.session.id).toBe(session.id);
    // How long a kept answer about the replaced token may last (sessions/kept-answers.ts).
    expect(byReplaced?.presentedTokenEndsAt).toBe(at(RENEWED_TOKEN_GRACE_MS).toISOString());
    expect(await findSessionWithIdentity(db, first, at(RENEWED_TOKEN_GRACE_MS))).toBeUndefined();
    expect((await findSessionWithIdentity(db, second, at(RENEWED_TOKEN_GRACE_MS * 100)))?.session.id).toBe(session.id);
    // A second renewal ends the first token at once; the second one gets the grace window now.
    const third = await renewSessionToken(db.kysely, clock, session.id);
    expect(await findSessionWithIdentity(db, first, clock.now())).toBeUndefined();
    expect((await findSessionWithIdentity(db, second, clock.now()))?.session.id).toBe(session.id);
    // A rise in assurance leaves no earlier token working, not even within its grace window.
    const upgraded = await upgradeSession(db.kysely, clock, session, [], { reauthenticated: false, lifespanMs: 1 });
    expect(await findSessionWithIdentity(db, second, clock.now())).toBeUndefined();
    expect(await findSessionWithIdentity(db, third, clock.now())).toBeUndefined();
    expect((await findSessionWithIdentity(db, upgraded.token, clock.now()))?.session.id).toBe(session.id);
    // Revoking ends every token of the session.
    await revokeSession(db.kysely, session.id);
    expect((await findSessionWithIdentity(db, upgraded.token, clock.now()))?.session.active).toBe(false);
  });

  it('reads the session and identity with its addresses as the separate reads do', async () => {
    const { token } = await personWithSession('anne@voorbeeldstad.nl');
    await personWithSession('bert@voorbeeldstad.nl');
    const found = await expectSameAsSeparateReads(token);
    expect(found?.identity.verifiableAddresses).toHaveLength(1);
    expect(found?.identity.recoveryAddresses).toHaveLength(1);
    expect(found?.secondFactorAvailable).toBe(false);
  });

  it('lists each address once and in order when an identity has several of each kind', async () => {
    const { identityId, token } = await personWithSession('anne@voorbeeldstad.nl');
    for (const [n, at] of [
      [2, '2026-01-06T00:00:00.000Z'],
      [3, '2026-01-04T00:00:00.000Z'],
    ] as const) {
      const address = { identity_id: identityId, value: `anne${n}@voorbeeldstad.nl`, created_at: at, updated_at: at };
      await db.kysely
        .insertInto('identity_verifiable_addresses')
        .values({ ...address, id: `v${n}`, via: 'email', verified: 0, status: 'pending', verified_at: null })
        .execute();
      await db.kysely
        .insertInto('identity_recovery_addresses')
        .values({ ...address, id: `r${n}`, via: 'email' })
        .execute();
    }
    const found = await expectSameAsSeparateReads(token);
    expect(found?.identity.verifiableAddresses.map((a) => a.value)).toEqual([
      'anne3@voorbeeldstad.nl',
      'anne@voorbeeldstad.nl',
      'anne2@voorbeeldstad.nl',
    ]);
    expect(found?.identity.recoveryAddresses).toHaveLength(3);
  });

  it.each([
    ['a password only', false, [['password', { hashed_password: 'x' }]]],
    ['an authenticator', true, [['totp', { totp_url: 'otpauth://totp/x' }]]],
    ['backup codes', true, [['lookup_secret', { recovery_codes: [{ code: 'abcd1234' }] }]]],
    ['used backup codes', true, [['lookup_secret', { recovery_codes: [{ code: 'abcd1234', used_at: '2026-01-01' }] }]]],
    ['an empty list of backup codes', false, [['lookup_secret', { recovery_codes: [] }]]],
    ['backup codes that are no list', false, [['lookup_secret', { recovery_codes: { code: 'abcd1234' } }]]],
    ['a lookup secret without codes', false, [['lookup_secret', {}]]],
    ['another type with codes', false, [['code', { recovery_codes: [{ code: 'abcd1234' }] }]]],
    ['a security key', true, [['webauthn', keysConfig(false)]]],
    ['a passwordless webauthn key', false, [['webauthn', keysConfig(true)]]],
    ['a passwordless and a second-factor key', true, [['webauthn', keysConfig(true, false)]]],
    ['a webauthn credential without keys', false, [['webauthn', keysConfig()]]],
    ['a passkey', false, [['passkey', keysConfig(true)]]],
    [
      'a password, a passkey and a security key',
      true,
      [
        ['password', { hashed_password: 'x' }],
        ['passkey', keysConfig(true)],
        ['webauthn', keysConfig(false)],
      ],
    ],
  ] as const)('decides on a second factor as availableAal does, with %s', async (_name, expected, credentials) => {
    const { identityId, token } = await personWithSession('anne@voorbeeldstad.nl');
    for (const [type, config] of credentials) {
      await saveCredential(db.kysely, clock, identityId, type, config, type === 'password' ? ['anne'] : []);
    }
    expect((await expectSameAsSeparateReads(token))?.secondFactorAvailable).toBe(expected);
  });

  // Nothing is cached between lookups: what another process changes counts at the next one
  // (docs/kratos-compatibility.md#sessions-api), also once the lookup is compiled or prepared on this side.
  it('sees a revocation, a block and a 2FA change made through another connection at once', async () => {
    const other = openDatabase(databaseUrl);
    try {
      const { identityId, token } = await personWithSession('anne@voorbeeldstad.nl');
      const before = await findSessionWithIdentity(db, token, clock.now());
      expect(before?.session.active).toBe(true);
      await saveCredential(other.kysely, clock, identityId, 'totp', { totp_url: 'otpauth://totp/x' }, []);
      expect((await findSessionWithIdentity(db, token, clock.now()))?.secondFactorAvailable).toBe(true);
      await deleteCredential(other.kysely, clock, identityId, 'totp');
      expect((await findSessionWithIdentity(db, token, clock.now()))?.secondFactorAvailable).toBe(false);
      await updateIdentity(other.kysely, clock, identityId, { state: 'inactive' });
      expect((await findSessionWithIdentity(db, token, clock.now()))?.identity.state).toBe('inactive');
      await revokeSession(other.kysely, before?.session.id ?? '');
      expect((await findSessionWithIdentity(db, token, clock.now()))?.session.active).toBe(false);
    } finally {
      await other.close();
    }
  });

  it.runIf(postgresBase)('keeps answering when a migration changes the columns under the prepared lookup', async () => {
    const { token } = await personWithSession('anne@voorbeeldstad.nl');
    const before = await findSessionWithIdentity(db, token, clock.now());
    // The idle clock: PostgreSQL refuses to change the type of the columns the check mark's trigger names.
    await db.kysely.schema
      .alterTable('sessions')
      .alterColumn('last_seen_at', (c) => c.setDataType('text'))
      .execute();
    try {
      // PostgreSQL refuses the prepared plan now (0A000); the lookup runs unprepared instead.
      expect(await findSessionWithIdentity(db, token, clock.now())).toEqual(before);
      expect(warnings).toEqual(['prepared statements refused (a pooler?): running them unprepared']);
    } finally {
      await db.kysely.schema
        .alterTable('sessions')
        .alterColumn('last_seen_at', (c) => c.setDataType('varchar(32)'))
        .execute();
    }
  });
});
