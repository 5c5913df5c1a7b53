import { markChecksOn, type MarkedWrites, unmarkChecksOn } from '@portaal/idp';
import { type Kysely, PostgresAdapter } from 'kysely';
import { createPeopleCounting } from './0010_people_change_log.js';

/**
 * The writes of the tuple store and the catalogue that raise the identity provider's check mark (its migration
 * 0004_check_marks): a forward-auth check is decided on the person's tuples and the catalogue's services, data roles
 * and organisations. Invitations, reviews, imports, the audit log, mails and the OpenID Connect provider's own state
 * feed no kept check.
 *
 * On PostgreSQL the people mark's commit trigger (0010_people_change_log.ts) now takes the check mark's row lock
 * first, as the check mark's own trigger does: a transaction that raises both counters and one that raises only one
 * then always lock them in the same order, and cannot deadlock at commit.
 */
const WRITES: readonly MarkedWrites[] = [
  'relation_tuples',
  'catalogue_organisations',
  'catalogue_services',
  'catalogue_data_roles',
  'catalogue_service_access',
  'catalogue_oidc_clients',
].map((table) => ({ table, events: ['insert', 'delete', 'update'] }));

const LOCK_CHECK_MARK_FIRST = 'perform 1 from check_marks where id = 1 for update;';

export async function up(db: Kysely<unknown>): Promise<void> {
  await markChecksOn(db, WRITES);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await createPeopleCounting(db, LOCK_CHECK_MARK_FIRST);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await createPeopleCounting(db);
  await unmarkChecksOn(db, WRITES);
}
