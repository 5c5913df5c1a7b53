import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalogue_organisations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('requires_aal2', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('catalogue_data_roles')
    .addColumn('organisation_id', 'varchar(64)', (c) =>
      c.notNull().references('catalogue_organisations.id').onDelete('cascade'),
    )
    .addColumn('role_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalogue_data_roles_pk', ['organisation_id', 'role_id'])
    .execute();
  await db.schema
    .createTable('catalogue_services')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('catalogue_service_access')
    .addColumn('service_id', 'varchar(64)', (c) => c.notNull().references('catalogue_services.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('object', 'varchar(200)', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalogue_service_access_pk', ['service_id', 'kind', 'object'])
    .execute();
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('organisation_id', 'varchar(64)')
    .addColumn('actor_id', 'varchar(36)')
    .addColumn('actor_email', 'varchar(320)')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('object_id', 'varchar(36)')
    .addColumn('object_email', 'varchar(320)')
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('client_address', 'varchar(64)')
    .addColumn('details', 'text')
    .execute();
  await db.schema
    .createIndex('audit_log_organisation_at_idx')
    .on('audit_log')
    .columns(['organisation_id', 'at'])
    .execute();
}
