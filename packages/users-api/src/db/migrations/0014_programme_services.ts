import type { Kysely } from 'kysely';

/**
 * 'Programmabeheer' for data services: whether a service answers forward authentication, and the client secrets the
 * portal generates for a service's OpenID Connect client (their SHA-256 only; a rotated one stays valid until
 * `expires_at`, the overlap a service needs to take the new one into use).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('catalogue_services')
    .addColumn('forward_auth', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('oidc_client_secrets')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)')
    .addPrimaryKeyConstraint('oidc_client_secrets_pk', ['client_id', 'hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_client_secrets').execute();
  await db.schema.alterTable('catalogue_services').dropColumn('forward_auth').execute();
}
