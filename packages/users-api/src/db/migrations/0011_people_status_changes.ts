import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { createChangeLogging } from './0010_people_change_log.js';

/**
 * The people mark and its log (0008_people_changes.ts, 0010_people_change_log.ts) also count what a person's status
 * in the overview is decided on: a block or unblock (`identities.state`), the organisation record
 * (`identities.metadata_admin`), and a credential added or removed (whether any second factor exists). So an
 * organisation's statuses can be kept beside its keys and brought up to date person by person (users/kept-keys.ts).
 * A credential's own changes (a new password, a backup code used) leave the mark alone.
 */
const KEPT_CHANGES = 10_000;

const SQLITE_TRIGGERS = [
  { name: 'identities_status', event: 'update of state, metadata_admin on identities', subject: 'new.id' },
  { name: 'identity_credentials_insert', event: 'insert on identity_credentials', subject: 'new.identity_id' },
  { name: 'identity_credentials_delete', event: 'delete on identity_credentials', subject: 'old.identity_id' },
];

const CREDENTIALS_LOGGED = `elsif tg_table_name = 'identity_credentials' then
  insert into people_change_log (seq, subject_id)
    values (null, case when tg_op = 'DELETE' then old.identity_id else new.identity_id end);`;

const POSTGRES_TRIGGERS = [
  { name: 'identities_status', event: 'update of state, metadata_admin on identities' },
  { name: 'identity_credentials', event: 'insert or delete on identity_credentials' },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await createChangeLogging(db, CREDENTIALS_LOGGED);
    for (const { name, event } of POSTGRES_TRIGGERS) {
      await sql
        .raw(
          `create trigger people_change_log_${name} after ${event} ` +
            'for each row execute function people_change_logged()',
        )
        .execute(db);
      await sql
        .raw(
          `create constraint trigger people_changes_${name} after ${event} ` +
            'deferrable initially deferred for each row execute function people_changed()',
        )
        .execute(db);
    }
    return;
  }
  for (const { name, event, subject } of SQLITE_TRIGGERS) {
    await sql
      .raw(
        `create trigger people_change_log_${name} after ${event} begin ` +
          'update people_changes set n = n + 1 where id = 1; ' +
          `insert into people_change_log (seq, subject_id) select n, ${subject} from people_changes; ` +
          `delete from people_change_log where seq <= (select n from people_changes) - ${KEPT_CHANGES}; end`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const { name, event } of POSTGRES_TRIGGERS) {
      const table = event.split(' on ')[1];
      await sql.raw(`drop trigger people_change_log_${name} on ${table}`).execute(db);
      await sql.raw(`drop trigger people_changes_${name} on ${table}`).execute(db);
    }
    await createChangeLogging(db);
    return;
  }
  for (const { name } of SQLITE_TRIGGERS) await sql.raw(`drop trigger people_change_log_${name}`).execute(db);
}
