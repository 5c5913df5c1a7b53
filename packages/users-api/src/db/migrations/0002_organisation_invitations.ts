import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organisation_invitations')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('organisation_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('identity_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('relations', 'text', (c) => c.notNull())
    .addColumn('invited_by_id', 'varchar(36)')
    .addColumn('invited_by_email', 'varchar(320)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    // One pending invitation per person and organisation: inviting again replaces it.
    .addUniqueConstraint('organisation_invitations_uq', ['organisation_id', 'identity_id'])
    .execute();
  await db.schema
    .createIndex('organisation_invitations_identity_idx')
    .on('organisation_invitations')
    .column('identity_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('organisation_invitations').execute();
}
