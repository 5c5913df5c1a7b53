import type { Kysely } from 'kysely';

/**
 * The OpenID Connect provider's state (sessions, interactions, grants, codes, tokens), one row per model and id, as
 * node-oidc-provider's adapter interface stores it (packages/users-api/src/oidc/oidc-adapter.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_payloads')
    .addColumn('model', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'varchar(255)')
    .addColumn('uid', 'varchar(255)')
    .addColumn('user_code', 'varchar(255)')
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('consumed_at', 'varchar(32)')
    .addPrimaryKeyConstraint('oidc_payloads_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payloads_grant_idx').on('oidc_payloads').column('grant_id').execute();
  await db.schema.createIndex('oidc_payloads_uid_idx').on('oidc_payloads').column('uid').execute();
  await db.schema.createIndex('oidc_payloads_expires_idx').on('oidc_payloads').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_payloads').execute();
}
