import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A counter of changes to who is in which organisation under what name: people (created, deleted, renamed), their
 * relation tuples and their invitations. The overview keeps an organisation's member list while it stays the same
 * (users/user-page.ts), where the database's change mark would also change with every sign-in, session touch and
 * audit entry. Triggers count, so that every writer counts, the CLI and other processes included; the count commits
 * with the change it counts (docs/architecture.md#the-users-list-a-page-at-a-time).
 *
 * On PostgreSQL the count is taken at commit, once per transaction (a deferred constraint trigger and a
 * transaction-local flag): the row lock it needs is then the last lock a transaction takes, so two transactions that
 * change people wait for each other at commit and can never deadlock over it.
 */
const COUNTED: { table: string; events: string; sqliteEvents: string[] }[] = [
  {
    table: 'identities',
    events: 'insert or delete or update of traits',
    sqliteEvents: ['insert', 'delete', 'update of traits'],
  },
  { table: 'relation_tuples', events: 'insert or delete or update', sqliteEvents: ['insert', 'delete', 'update'] },
  {
    table: 'organisation_invitations',
    events: 'insert or delete or update',
    sqliteEvents: ['insert', 'delete', 'update'],
  },
];

const triggerName = (table: string, event: string) => `people_changes_${table}_${event.replaceAll(' ', '_')}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('people_changes')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into people_changes (id, n) values (1, 0)`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function people_changed() returns trigger language plpgsql as $$
      begin
        if current_setting('portaal.people_changed', true) = '1' then return null; end if;
        perform set_config('portaal.people_changed', '1', true);
        update people_changes set n = n + 1 where id = 1;
        return null;
      end $$`.execute(db);
    for (const { table, events } of COUNTED) {
      await sql
        .raw(
          `create constraint trigger ${triggerName(table, 'change')} after ${events} on ${table} ` +
            'deferrable initially deferred for each row execute function people_changed()',
        )
        .execute(db);
    }
    return;
  }
  for (const { table, sqliteEvents } of COUNTED) {
    for (const event of sqliteEvents) {
      await sql
        .raw(
          `create trigger ${triggerName(table, event)} after ${event} on ${table} ` +
            'begin update people_changes set n = n + 1 where id = 1; end',
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const { table } of COUNTED)
      await sql.raw(`drop trigger ${triggerName(table, 'change')} on ${table}`).execute(db);
    await sql`drop function people_changed()`.execute(db);
  } else {
    for (const { table, sqliteEvents } of COUNTED) {
      for (const event of sqliteEvents) await sql.raw(`drop trigger ${triggerName(table, event)}`).execute(db);
    }
  }
  await db.schema.dropTable('people_changes').execute();
}
