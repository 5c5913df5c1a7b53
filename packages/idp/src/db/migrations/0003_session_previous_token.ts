import type { Kysely } from 'kysely';

// A renewed session token leaves the one it replaces usable for a short grace window, so that requests already under
// way with it (another tab, a parallel call) do not fail (docs/security.md#21-a-new-token-at-every-sign-in). Only its
// hash is kept, as for the current token.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('previous_token_hash', 'varchar(64)').execute();
  await db.schema.alterTable('sessions').addColumn('previous_token_expires_at', 'varchar(32)').execute();
  await db.schema.createIndex('sessions_previous_token_idx').on('sessions').column('previous_token_hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sessions_previous_token_idx').execute();
  await db.schema.alterTable('sessions').dropColumn('previous_token_expires_at').execute();
  await db.schema.alterTable('sessions').dropColumn('previous_token_hash').execute();
}
