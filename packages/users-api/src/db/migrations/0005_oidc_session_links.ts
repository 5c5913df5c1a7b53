import type { Kysely } from 'kysely';

/**
 * Which portal session each OpenID Connect grant was made from, so that every grant ends with its session
 * (packages/users-api/src/oidc/single-logout.ts); and the provider's state keyed by the hash of each id, so that no
 * token or code is kept in clear (oidc-adapter.ts). Rows stored before this migration held ids in clear and are
 * removed: the services sign the person in once more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_session_links')
    .addColumn('grant_id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('portal_session_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('sid', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ended_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('oidc_session_links_session_idx')
    .on('oidc_session_links')
    .column('portal_session_id')
    .execute();
  await db.schema.createIndex('oidc_session_links_ended_idx').on('oidc_session_links').column('ended_at').execute();
  await db.deleteFrom('oidc_payloads' as never).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_session_links').execute();
}
