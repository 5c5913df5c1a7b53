import type { Kysely } from 'kysely';

/** When each person last signed in (audit/last-sign-ins.ts): one row per identity, replaced at each sign-in. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('last_sign_ins')
    .addColumn('identity_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('signed_in_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('last_sign_ins').execute();
}
