import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('relation_tuples')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('namespace', 'varchar(64)', (c) => c.notNull())
    .addColumn('object', 'varchar(255)', (c) => c.notNull())
    .addColumn('relation', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('subject_set_namespace', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_set_object', 'varchar(255)', (c) => c.notNull())
    .addColumn('subject_set_relation', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('relation_tuples_tuple_uq', [
      'namespace',
      'object',
      'relation',
      'subject_id',
      'subject_set_namespace',
      'subject_set_object',
      'subject_set_relation',
    ])
    .execute();
  // "Which objects does this user relate to?" is the Users API's most frequent question.
  await db.schema
    .createIndex('relation_tuples_subject_idx')
    .on('relation_tuples')
    .columns(['subject_id', 'namespace'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('relation_tuples').execute();
}
