import type { Kysely } from 'kysely';

// A data service's OpenID Connect client registration, from the catalogue's `oidc` block; never its secret.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalogue_oidc_clients')
    .addColumn('service_id', 'varchar(64)', (c) =>
      c.primaryKey().references('catalogue_services.id').onDelete('cascade'),
    )
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('client_type', 'varchar(16)', (c) => c.notNull())
    // JSON arrays of URLs.
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull())
    .addColumn('backchannel_logout_uri', 'varchar(2048)')
    .addColumn('initiate_login_uri', 'varchar(2048)')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalogue_oidc_clients').execute();
}
