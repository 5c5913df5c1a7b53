import { randomUUID } from 'node:crypto';
import { migrateToLatest, openDatabase, type Db } from '@portaal/idp';
import { migrateRelations } from '@portaal/relations';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sharedTestDatabase } from '../../../../e2e/support/database.js';
import { migrateUsersApi } from './migrate.js';

// The check mark (the identity provider's db/check-marks.ts) on the database of the integration run: a SQLite file,
// or a fresh database on the throwaway PostgreSQL cluster of scripts/integration.mjs (TEST_DATABASE=postgres).
const onPostgres = process.env.TEST_DATABASE === 'postgres';

/**
 * The tables that no kept session check reads, so that their writes leave the mark alone. A table added to the
 * schema fails the first test until it is put here or given the mark's triggers.
 */
const FEEDS_NO_CHECK = [
  'check_marks',
  // Migrations' bookkeeping.
  'idp_migrations',
  'idp_migrations_lock',
  'relations_migrations',
  'relations_migrations_lock',
  'users_api_migrations',
  'users_api_migrations_lock',
  // Sign-in, recovery, verification and settings while they run; their outcome lands in the tables that count.
  'selfservice_flows',
  'selfservice_errors',
  'one_time_codes',
  'throttles',
  // What happened, and mails: written by sign-ins and checks themselves.
  'audit_log',
  'last_sign_ins',
  'courier_messages',
  'mail_throttle',
  // The overview's own mark, invitations (an invited person's access comes from tuples), reviews, imports.
  'people_changes',
  'people_change_log',
  'organisation_invitations',
  'access_reviews',
  'access_review_items',
  'people_imports',
  'people_import_rows',
  // The OpenID Connect provider's state: userinfo reads it afresh on every call, nothing of it is kept.
  'oidc_payloads',
  'oidc_session_links',
  'oidc_client_secrets',
  'oidc_key_announcements',
];

/** Raw rows of every package's tables. */
type AnyDb = Kysely<any>;

const now = () => new Date().toISOString();

async function insertPerson(db: AnyDb): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('identities')
    .values({
      id,
      schema_id: 'default',
      state: 'active',
      traits: JSON.stringify({ email: `${id}@voorbeeldstad.nl` }),
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}

async function insertSession(db: AnyDb, identityId: string): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('sessions')
    .values({
      id,
      token_hash: randomUUID(),
      logout_token_hash: randomUUID(),
      identity_id: identityId,
      active: 1,
      authentication_methods: '[]',
      authenticated_at: now(),
      issued_at: now(),
      expires_at: now(),
      last_seen_at: now(),
      ip_address: '127.0.0.1',
      user_agent: 'vitest',
      created_at: now(),
    })
    .execute();
  return id;
}

async function insertCredential(db: AnyDb, identityId: string, type: string): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('identity_credentials')
    .values({ id, identity_id: identityId, type, config: '{}', created_at: now(), updated_at: now() })
    .execute();
  return id;
}

describe(`the check mark on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
  let databaseUrl: string;
  let db: Db;
  let other: Db;
  let kysely: AnyDb;

  beforeAll(async () => {
    database = await sharedTestDatabase();
    databaseUrl = database.url;
    const first = openDatabase(databaseUrl);
    await migrateToLatest(first);
    await migrateRelations(first.kysely);
    await migrateUsersApi(first.kysely);
    await first.close();
  });
  afterAll(() => database.remove());
  beforeEach(() => {
    db = openDatabase(databaseUrl);
    // Another process on the same database: the writes below are made there.
    other = openDatabase(databaseUrl);
    kysely = other.kysely;
  });
  afterEach(async () => {
    await db.close();
    await other.close();
  });

  /** Whether `write`, committed by the other process, moved this process' mark. */
  async function moves(write: () => Promise<unknown>): Promise<boolean> {
    const before = await db.changeMark();
    await write();
    return (await db.changeMark()) !== before;
  }

  it('is raised by every table that a check reads, and the others are listed as feeding none', async () => {
    const tables = onPostgres
      ? (
          await sql<{ name: string }>`
            select table_name as name from information_schema.tables
            where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(kysely)
        ).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(kysely)).rows;
    const marked = onPostgres
      ? (
          await sql<{ name: string }>`
            select distinct event_object_table as name from information_schema.triggers
            where action_statement like '%check_marked()%'`.execute(kysely)
        ).rows
      : (
          await sql<{ name: string }>`
            select distinct tbl_name as name from sqlite_master
            where type = 'trigger' and sql like '%update check_marks set n = n + 1%'`.execute(kysely)
        ).rows;
    const names = (rows: { name: string }[]) => rows.map((row) => row.name).sort();
    expect(
      names(marked).filter((table) => FEEDS_NO_CHECK.includes(table)),
      'listed and marked',
    ).toEqual([]);
    expect(names(tables).filter((table) => !FEEDS_NO_CHECK.includes(table))).toEqual(names(marked));
  });

  it("moves with a change to a person's sessions, record, credentials and addresses", async () => {
    const person = await insertPerson(kysely);
    const session = await insertSession(kysely, person);
    expect(
      await moves(() => kysely.updateTable('sessions').set({ active: 0 }).where('id', '=', session).execute()),
    ).toBe(true);
    expect(
      await moves(() =>
        kysely.updateTable('sessions').set({ token_hash: randomUUID() }).where('id', '=', session).execute(),
      ),
      'a renewed token',
    ).toBe(true);
    expect(
      await moves(() => kysely.updateTable('identities').set({ state: 'inactive' }).where('id', '=', person).execute()),
    ).toBe(true);
    expect(await moves(() => insertCredential(kysely, person, 'totp')), 'an app linked').toBe(true);
    const codes = await insertCredential(kysely, person, 'lookup_secret');
    expect(
      await moves(() =>
        kysely.updateTable('identity_credentials').set({ config: '{"used":1}' }).where('id', '=', codes).execute(),
      ),
      'a backup code used',
    ).toBe(true);
    expect(
      await moves(() =>
        kysely
          .insertInto('identity_verifiable_addresses')
          .values({
            id: randomUUID(),
            identity_id: person,
            value: `${person}@voorbeeldstad.nl`,
            via: 'email',
            status: 'pending',
            created_at: now(),
            updated_at: now(),
          })
          .execute(),
      ),
    ).toBe(true);
    expect(await moves(() => kysely.deleteFrom('sessions').where('id', '=', session).execute())).toBe(true);
    expect(await moves(() => kysely.deleteFrom('identities').where('id', '=', person).execute())).toBe(true);
  });

  it('moves with a change to a tuple or the catalogue', async () => {
    const person = await insertPerson(kysely);
    const tuple = randomUUID();
    expect(
      await moves(() =>
        kysely
          .insertInto('relation_tuples')
          .values({
            id: tuple,
            namespace: 'organizations',
            object: 'voorbeeldstad',
            relation: 'access',
            subject_id: person,
            subject_set_namespace: '',
            subject_set_object: '',
            subject_set_relation: '',
            created_at: now(),
          })
          .execute(),
      ),
    ).toBe(true);
    expect(await moves(() => kysely.deleteFrom('relation_tuples').where('id', '=', tuple).execute())).toBe(true);
    expect(
      await moves(() =>
        kysely
          .insertInto('catalogue_services')
          .values({ id: 'kaart', name: 'Kaart', description: '', url: 'https://kaart.example', position: 1 })
          .execute(),
      ),
    ).toBe(true);
    expect(await moves(() => kysely.updateTable('catalogue_services').set({ name: 'Kaarten' }).execute())).toBe(true);
    expect(await moves(() => kysely.deleteFrom('catalogue_services').execute())).toBe(true);
  });

  it('stays with a sign-in: a new person and session, the idle clock, a TOTP step, an audit entry', async () => {
    const person = await insertPerson(kysely);
    const app = await insertCredential(kysely, person, 'totp');
    expect(await moves(() => insertPerson(kysely)), 'a new person').toBe(false);
    let session = '';
    expect(await moves(async () => (session = await insertSession(kysely, person))), 'a new session').toBe(false);
    expect(
      await moves(() =>
        kysely.updateTable('sessions').set({ last_seen_at: now() }).where('id', '=', session).execute(),
      ),
      'the idle clock',
    ).toBe(false);
    expect(
      await moves(() =>
        kysely.updateTable('identity_credentials').set({ last_used_step: 42 }).where('id', '=', app).execute(),
      ),
      'a TOTP step claimed',
    ).toBe(false);
    expect(
      await moves(() =>
        kysely
          .insertInto('audit_log')
          .values({ id: randomUUID(), at: now(), action: 'session.create', result: 'success' })
          .execute(),
      ),
      'an audit entry',
    ).toBe(false);
  });

  it('counts every column of a session but the idle clock, and of a credential but the TOTP step', async () => {
    const person = await insertPerson(kysely);
    const session = await insertSession(kysely, person);
    const credential = await insertCredential(kysely, person, 'password');
    const columnsOf = async (table: string) =>
      onPostgres
        ? (
            await sql<{ name: string }>`
              select column_name as name from information_schema.columns where table_name = ${table}`.execute(kysely)
          ).rows.map((row) => row.name)
        : (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(kysely)).rows.map(
            (row) => row.name,
          );
    const uncounted: string[] = [];
    for (const [table, id] of [
      ['sessions', session],
      ['identity_credentials', credential],
    ] as const) {
      for (const column of await columnsOf(table)) {
        // Setting a column to itself is an update of it for both engines' `update of` triggers.
        const write = () =>
          sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)} where id = ${id}`;
        if (!(await moves(() => write().execute(kysely)))) uncounted.push(`${table}.${column}`);
      }
    }
    expect(uncounted.sort()).toEqual(['identity_credentials.last_used_step', 'sessions.last_seen_at']);
  });

  it.runIf(!onPostgres)('is read after a transaction under way here, never from inside it', async () => {
    const person = await insertPerson(db.kysely);
    const session = await insertSession(db.kysely, person);
    const before = await db.changeMark();
    let during: Promise<string> | string | undefined;
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('sessions').set({ active: 0 }).where('id', '=', session).execute();
        during = db.changeMark();
        throw new Error('teruggedraaid');
      }),
    ).rejects.toThrow('teruggedraaid');
    // The revocation was rolled back: a mark read inside it would have been one a later change takes again.
    expect(await during).toBe(before);
    expect(
      await moves(() => kysely.updateTable('sessions').set({ active: 0 }).where('id', '=', session).execute()),
    ).toBe(true);
  });

  it.runIf(onPostgres)(
    "lets a transaction raising both marks and one holding the check mark's lock commit without deadlock",
    async () => {
      const person = await insertPerson(kysely);
      const session = await insertSession(kysely, person);
      const holder = new pg.Client({ connectionString: databaseUrl });
      await holder.connect();
      try {
        // As a committing transaction that raised the check mark and raises the people mark next.
        await holder.query('begin');
        await holder.query('update check_marks set n = n + 1 where id = 1');
        // A new person raises the people mark first at commit, the revocation the check mark after it.
        const committing = db.kysely.transaction().execute(async (trx) => {
          await insertPerson(trx);
          await trx.updateTable('sessions').set({ active: 0 }).where('id', '=', session).execute();
        });
        // Asked outside the holder's transaction, which would see the activity as it was when it began.
        await expect
          .poll(async () => {
            const waiting = await kysely
              .selectFrom('pg_stat_activity' as never)
              .select(sql`1`.as('waiting'))
              .where(sql`wait_event_type = 'Lock' and datname = current_database()`)
              .execute();
            return waiting.length;
          })
          .toBe(1);
        // Had the waiting commit taken the people mark's lock before the check mark's, this would deadlock.
        await holder.query('update people_changes set n = n + 1 where id = 1');
        await holder.query('commit');
        await committing;
      } finally {
        await holder.end();
      }
    },
  );
});
