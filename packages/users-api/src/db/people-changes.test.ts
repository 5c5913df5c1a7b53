import type { Db } from '@portaal/idp';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { peopleChangedSince, peopleMark } from '../adapters/people-keys.js';
import { migratedDatabase } from '../test-support/migrated-database.js';

// The people mark (migrations/0008_people_changes.ts, 0011_people_status_changes.ts): the triggers count changes to
// people, their status, their tuples and their invitations, by any writer, and nothing else; and log whom each was
// about (migrations/0010_people_change_log.ts). PostgreSQL's triggers run in e2e/api/users-api-paging.test.ts.

let db: Db;

const count = async () =>
  Number((await sql<{ n: number }>`select n from people_changes`.execute(db.kysely)).rows[0]!.n);
const run = (statement: string) => sql.raw(statement).execute(db.kysely);
const NOW = '2026-11-27T10:00:00.000Z';

beforeEach(async () => {
  db = await migratedDatabase();
  await run(
    `insert into identities (id, schema_id, state, traits, metadata_public, metadata_admin, created_at, updated_at)
     values ('p1', 'default', 'active', '{"email":"a@voorbeeldstad.nl"}', null, null, '${NOW}', '${NOW}')`,
  );
});

afterEach(() => db.close());

describe('the people mark', () => {
  it('counts a person renamed, removed or added, and their tuples and invitations', async () => {
    const changes = [
      `update identities set traits = '{"email":"b@voorbeeldstad.nl"}' where id = 'p1'`,
      `insert into relation_tuples (id, namespace, object, relation, subject_id, subject_set_namespace,
         subject_set_object, subject_set_relation, created_at)
       values ('t1', 'organizations', 'voorbeeldstad', 'issuer', 'p1', '', '', '', '${NOW}')`,
      `delete from relation_tuples where subject_id = 'p1'`,
      `insert into organisation_invitations (id, organisation_id, identity_id, email, relations, created_at, expires_at)
       values ('i1', 'dego', 'p1', 'b@voorbeeldstad.nl', '[]', '${NOW}', '${NOW}')`,
      `delete from organisation_invitations where id = 'i1'`,
      `delete from identities where id = 'p1'`,
    ];
    for (const change of changes) {
      const before = await count();
      await run(change);
      expect(await count(), change).toBeGreaterThan(before);
    }
  });

  it('counts a block, a new organisation record, a credential added or removed', async () => {
    const changes = [
      `update identities set state = 'inactive', updated_at = '${NOW}' where id = 'p1'`,
      `update identities set metadata_admin = '{"home_organisation":"dijkstad"}' where id = 'p1'`,
      `insert into identity_credentials (id, identity_id, type, config, created_at, updated_at)
       values ('c1', 'p1', 'totp', '{}', '${NOW}', '${NOW}')`,
      `delete from identity_credentials where id = 'c1'`,
    ];
    for (const change of changes) {
      const before = await count();
      await run(change);
      expect(await count(), change).toBeGreaterThan(before);
    }
  });

  it("leaves out what no list shows: a credential's new secret, an account's change time, an audit entry", async () => {
    await run(
      `insert into identity_credentials (id, identity_id, type, config, created_at, updated_at)
       values ('c1', 'p1', 'password', '{}', '${NOW}', '${NOW}')`,
    );
    const before = await count();
    await run(`update identity_credentials set config = '{"hashed_password":"x"}', updated_at = '${NOW}'`);
    await run(`update identities set updated_at = '${NOW}' where id = 'p1'`);
    await run(
      `insert into audit_log (id, at, organisation_id, actor_id, actor_email, client_address, action, object_id,
         object_email, result, details)
       values ('a1', '${NOW}', null, null, null, '127.0.0.1', 'login', null, null, 'allowed', null)`,
    );
    expect(await count()).toBe(before);
  });
});

const tuple = (id: string, subject: string, setNamespace = '') =>
  `insert into relation_tuples (id, namespace, object, relation, subject_id, subject_set_namespace,
     subject_set_object, subject_set_relation, created_at)
   values ('${id}', 'organizations', 'voorbeeldstad', 'issuer', '${subject}', '${setNamespace}', '', '', '${NOW}')`;

describe('whom the changes were about', () => {
  it('names the person of each change, and anyone for an invitation or a tuple of a subject set', async () => {
    const since = async (change: string) => {
      const from = await peopleMark(db.kysely);
      await run(change);
      return peopleChangedSince(db.kysely, from, await peopleMark(db.kysely));
    };
    expect(await since(`update identities set traits = '{"email":"b@voorbeeldstad.nl"}' where id = 'p1'`)).toEqual([
      'p1',
    ]);
    expect(await since(tuple('t1', 'p1'))).toEqual(['p1']);
    expect(await since(`update relation_tuples set subject_id = 'p2' where id = 't1'`)).toEqual(['p1', 'p2']);
    expect(await since(tuple('t2', '', 'organizations'))).toBeUndefined();
    expect(
      await since(
        `insert into organisation_invitations (id, organisation_id, identity_id, email, relations, created_at,
           expires_at) values ('i1', 'dego', 'p1', 'b@voorbeeldstad.nl', '[]', '${NOW}', '${NOW}')`,
      ),
    ).toBeUndefined();
    expect(await since(`update identities set state = 'inactive' where id = 'p1'`)).toEqual(['p1']);
    expect(await since(`delete from identities where id = 'p1'`)).toEqual(['p1']);
  });

  it('tells the people of many changes at once, until the log no longer reaches back that far', async () => {
    const from = await peopleMark(db.kysely);
    await run(tuple('t1', 'p1'));
    await run(tuple('t2', 'p2'));
    expect(await peopleChangedSince(db.kysely, from, await peopleMark(db.kysely))).toEqual(['p1', 'p2']);
    // The log keeps the newest 10,000 changes.
    for (let i = 0; i < 10_000; i += 1) await run(`update relation_tuples set relation = 'r${i % 2}' where id = 't1'`);
    const to = await peopleMark(db.kysely);
    expect(await peopleChangedSince(db.kysely, from, to)).toBeUndefined();
    expect(await peopleChangedSince(db.kysely, String(Number(to) - 9_000), to)).toEqual(['p1']);
    const logged = await sql<{ n: number }>`select count(distinct seq) as n from people_change_log`.execute(db.kysely);
    expect(logged.rows[0]!.n).toBe(10_000);
  });
});
