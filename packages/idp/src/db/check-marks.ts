import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { fixedStatement } from './fixed-statement.js';

/**
 * The check mark (`Db.changeMark`): a counter raised by triggers, in the transaction of the write, by every write that
 * can change a kept session check (whoami, forward-auth): a session ended or renewed, a person changed, blocked or
 * deleted, a credential, an address, a tuple, the catalogue. Writes that no check reads leave it alone: a new session,
 * the idle clock, flows, audit entries, mails, throttles. So a busy portal's sign-ins and audit entries do not make
 * every kept answer miss, and what does change a check still counts at the very next request everywhere, the CLI's
 * and other processes' writes included (docs/architecture.md#session-checks-kept-while-nothing-changes).
 *
 * On PostgreSQL the counter is raised at commit, once per transaction (a deferred constraint trigger and a
 * transaction-local flag), so its row lock is among the last a transaction takes. The people mark's trigger
 * (the Users API's migrations) takes this row's lock before its own, so the two counters are always locked in the
 * same order and two committing transactions cannot deadlock over them.
 *
 * A later migration that rebuilds a counted table (SQLite drops its triggers) or changes the type of a counted column
 * (PostgreSQL refuses while a trigger names it) creates the triggers anew; the Users API's
 * db/check-marks.integration.test.ts fails while a table or column is neither counted nor listed as feeding no check.
 */
export const CHECK_MARK = fixedStatement('portaal_check_mark', 'select n from check_marks where id = 1');

/** The writes to one table that raise the check mark, each as SQLite writes a trigger's event. */
export interface MarkedWrites {
  table: string;
  /** 'insert', 'delete', 'update', or 'update of' followed by the columns whose change counts. */
  events: readonly string[];
}

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;
const sqliteTrigger = (table: string, event: string) => `check_marks_${table}_${event.split(' ')[0]}`;
const postgresTrigger = (table: string) => `check_marks_${table}`;

/** The counter's table and, on PostgreSQL, the function its triggers run. */
export async function createCheckMarks(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('check_marks')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into check_marks (id, n) values (1, 0)`.execute(db);
  if (!isPostgres(db)) return;
  await sql`
    create function check_marked() returns trigger language plpgsql as $$
    begin
      if current_setting('portaal.check_marked', true) = '1' then return null; end if;
      perform set_config('portaal.check_marked', '1', true);
      update check_marks set n = n + 1 where id = 1;
      return null;
    end $$`.execute(db);
}

export async function dropCheckMarks(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`drop function check_marked()`.execute(db);
  await db.schema.dropTable('check_marks').execute();
}

/** Makes these writes raise the check mark. */
export async function markChecksOn(db: Kysely<unknown>, writes: readonly MarkedWrites[]): Promise<void> {
  for (const { table, events } of writes) {
    if (isPostgres(db)) {
      await sql
        .raw(
          `create constraint trigger ${postgresTrigger(table)} after ${events.join(' or ')} on ${table} ` +
            'deferrable initially deferred for each row execute function check_marked()',
        )
        .execute(db);
      continue;
    }
    for (const event of events) {
      await sql
        .raw(
          `create trigger ${sqliteTrigger(table, event)} after ${event} on ${table} ` +
            'begin update check_marks set n = n + 1 where id = 1; end',
        )
        .execute(db);
    }
  }
}

export async function unmarkChecksOn(db: Kysely<unknown>, writes: readonly MarkedWrites[]): Promise<void> {
  for (const { table, events } of writes) {
    if (isPostgres(db)) await sql.raw(`drop trigger ${postgresTrigger(table)} on ${table}`).execute(db);
    else for (const event of events) await sql.raw(`drop trigger ${sqliteTrigger(table, event)}`).execute(db);
  }
}
