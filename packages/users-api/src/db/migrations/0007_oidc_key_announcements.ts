import type { Kysely } from 'kysely';

/** Which signing keys each running process publishes (oidc/signing-key-agreement.ts): one row per process. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_key_announcements')
    .addColumn('process_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kids', 'varchar(2000)', (c) => c.notNull())
    .addColumn('seen_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_key_announcements').execute();
}
