import type { Kysely } from 'kysely';

/**
 * Imports of people from a CSV file (imports/): the job, and each row with what was planned and what was done. A
 * row's outcome is written in the transaction that makes its change and queues its mail, so a process that stops
 * midway leaves every row done or untouched, and the next one goes on from the first row without an outcome.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('people_imports')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('organisation_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_by_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_by_email', 'varchar(320)', (c) => c.notNull())
    .addColumn('client_address', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    // preview, running, done
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)')
    .addColumn('finished_at', 'varchar(32)')
    // Which process works on it, until when (ms since the epoch); another takes over once it has passed.
    .addColumn('lease_owner', 'varchar(36)')
    .addColumn('lease_until', 'bigint')
    .execute();
  await db.schema
    .createIndex('people_imports_organisation_idx')
    .on('people_imports')
    .columns(['organisation_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('people_import_rows')
    .addColumn('import_id', 'varchar(36)', (c) => c.notNull().references('people_imports.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(50)', (c) => c.notNull())
    // The data roles' ids, comma-separated.
    .addColumn('data_roles', 'text', (c) => c.notNull())
    .addColumn('admin', 'integer', (c) => c.notNull())
    // create, invite, add, unchanged, refused: what the preview found.
    .addColumn('plan', 'varchar(9)', (c) => c.notNull())
    .addColumn('reason', 'text')
    // created, invited, added, unchanged, refused, failed: what was done; null until then.
    .addColumn('outcome', 'varchar(9)')
    .addColumn('identity_id', 'varchar(36)')
    // Whether the row's mail is queued (a new account's invitation follows its commit, see imports/import-worker.ts).
    .addColumn('mailed', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('people_import_rows_pk', ['import_id', 'line'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('people_import_rows').execute();
  await db.schema.dropTable('people_imports').execute();
}
