import type { Kysely } from 'kysely';

/** The mail throttle's counters (mail/mail-throttle.ts): one row per recipient address (hashed) or organisation. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_throttle')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('sent', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_throttle').execute();
}
