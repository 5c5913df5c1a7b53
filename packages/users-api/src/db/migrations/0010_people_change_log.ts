import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Who each change counted by the people mark (0008_people_changes.ts) was about: a row per change with the mark it
 * made (`seq`) and the person (`subject_id`), or '*' when it may concern anyone (an invitation, a tuple whose subject
 * is a subject set). A process that keeps an organisation's member list reads the rows after its mark and re-reads
 * only those people (users/kept-keys.ts). The newest `KEPT_CHANGES` marks are kept; older rows are deleted as new
 * ones come, and a list kept from before them is read afresh.
 *
 * SQLite writes one transaction at a time, so each change takes the next mark in its trigger. On PostgreSQL a change
 * logs its row without a mark, and the trigger that counts once per transaction at commit (0008) stamps them with the
 * transaction's mark: the marks are then given in commit order, as the counter's row lock orders the commits.
 */
const KEPT_CHANGES = 10_000;

const SQLITE_TRIGGERS: { table: string; event: string; subjects: string[] }[] = [
  { table: 'identities', event: 'insert', subjects: ['new.id'] },
  { table: 'identities', event: 'delete', subjects: ['old.id'] },
  { table: 'identities', event: 'update of traits', subjects: ['new.id'] },
  { table: 'relation_tuples', event: 'insert', subjects: [tupleSubject('new')] },
  { table: 'relation_tuples', event: 'delete', subjects: [tupleSubject('old')] },
  { table: 'relation_tuples', event: 'update', subjects: [tupleSubject('old'), tupleSubject('new')] },
  { table: 'organisation_invitations', event: 'insert', subjects: ["'*'"] },
  { table: 'organisation_invitations', event: 'delete', subjects: ["'*'"] },
  { table: 'organisation_invitations', event: 'update', subjects: ["'*'"] },
];

function tupleSubject(row: 'old' | 'new'): string {
  return `case when ${row}.subject_id = '' then '*' else ${row}.subject_id end`;
}

const oldTrigger = (table: string, event: string) => `people_changes_${table}_${event.replaceAll(' ', '_')}`;
const newTrigger = (table: string, event: string) => `people_change_log_${table}_${event.replaceAll(' ', '_')}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('people_change_log')
    .addColumn('seq', 'bigint')
    .addColumn('subject_id', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('people_change_log_seq_idx').on('people_change_log').column('seq').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await upPostgres(db);
    return;
  }
  for (const { table, event, subjects } of SQLITE_TRIGGERS) {
    await sql.raw(`drop trigger ${oldTrigger(table, event)}`).execute(db);
    const logged = subjects
      .map((subject) => `insert into people_change_log (seq, subject_id) select n, ${subject} from people_changes;`)
      .join(' ');
    await sql
      .raw(
        `create trigger ${newTrigger(table, event)} after ${event} on ${table} begin ` +
          `update people_changes set n = n + 1 where id = 1; ${logged} ` +
          `delete from people_change_log where seq <= (select n from people_changes) - ${KEPT_CHANGES}; end`,
      )
      .execute(db);
  }
}

/**
 * The function that logs a change on PostgreSQL, for each row of the counted tables; `more` adds `elsif` branches for
 * further tables (0011_people_status_changes.ts).
 */
export async function createChangeLogging(db: Kysely<unknown>, more = ''): Promise<void> {
  await sql
    .raw(`
    create or replace function people_change_logged() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'organisation_invitations' then
        insert into people_change_log (seq, subject_id) values (null, '*');
      elsif tg_table_name = 'identities' then
        insert into people_change_log (seq, subject_id)
          values (null, case when tg_op = 'DELETE' then old.id else new.id end);
      ${more}
      else
        if tg_op <> 'INSERT' then
          insert into people_change_log (seq, subject_id)
            values (null, case when old.subject_id = '' then '*' else old.subject_id end);
        end if;
        if tg_op <> 'DELETE' then
          insert into people_change_log (seq, subject_id)
            values (null, case when new.subject_id = '' then '*' else new.subject_id end);
        end if;
      end if;
      return null;
    end $$`)
    .execute(db);
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await createChangeLogging(db);
  for (const [table, events] of [
    ['identities', 'insert or delete or update of traits'],
    ['relation_tuples', 'insert or delete or update'],
    ['organisation_invitations', 'insert or delete or update'],
  ] as const) {
    await sql
      .raw(
        `create trigger ${newTrigger(table, 'change')} after ${events} on ${table} ` +
          'for each row execute function people_change_logged()',
      )
      .execute(db);
  }
  await createPeopleCounting(db);
}

/**
 * The function that raises the people mark on PostgreSQL at commit and stamps the transaction's logged changes with
 * it; `lockFirst` runs before, to take another counter's lock first (0016_check_marks.ts).
 */
export async function createPeopleCounting(db: Kysely<unknown>, lockFirst = ''): Promise<void> {
  await sql
    .raw(`
    create or replace function people_changed() returns trigger language plpgsql as $$
    declare
      mark bigint;
    begin
      if current_setting('portaal.people_changed', true) = '1' then return null; end if;
      perform set_config('portaal.people_changed', '1', true);
      ${lockFirst}
      update people_changes set n = n + 1 where id = 1 returning n into mark;
      update people_change_log set seq = mark where seq is null;
      delete from people_change_log where seq <= mark - ${KEPT_CHANGES};
      return null;
    end $$`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of ['identities', 'relation_tuples', 'organisation_invitations'])
      await sql.raw(`drop trigger ${newTrigger(table, 'change')} on ${table}`).execute(db);
    await sql`drop function people_change_logged()`.execute(db);
    await sql`
      create or replace function people_changed() returns trigger language plpgsql as $$
      begin
        if current_setting('portaal.people_changed', true) = '1' then return null; end if;
        perform set_config('portaal.people_changed', '1', true);
        update people_changes set n = n + 1 where id = 1;
        return null;
      end $$`.execute(db);
  } else {
    for (const { table, event } of SQLITE_TRIGGERS) {
      await sql.raw(`drop trigger ${newTrigger(table, event)}`).execute(db);
      await sql
        .raw(
          `create trigger ${oldTrigger(table, event)} after ${event} on ${table} ` +
            'begin update people_changes set n = n + 1 where id = 1; end',
        )
        .execute(db);
    }
  }
  await db.schema.dropTable('people_change_log').execute();
}
