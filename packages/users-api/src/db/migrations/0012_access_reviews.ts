import type { Kysely } from 'kysely';

/**
 * Finished access reviews ('Toegangsreview', reviews/access-review.ts) and what was decided for each data role a
 * person held: kept as evidence of the periodic review of access rights, apart from the audit log, which is pruned.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_reviews')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('organisation_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('reviewed_by_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('reviewed_by_email', 'varchar(320)', (c) => c.notNull())
    .addColumn('completed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('kept', 'integer', (c) => c.notNull())
    .addColumn('withdrawn', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('access_reviews_organisation_idx')
    .on('access_reviews')
    .columns(['organisation_id', 'completed_at'])
    .execute();
  await db.schema
    .createTable('access_review_items')
    .addColumn('review_id', 'varchar(36)', (c) => c.notNull().references('access_reviews.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('identity_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('name', 'varchar(110)', (c) => c.notNull())
    .addColumn('data_role_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('data_role_label', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'varchar(32)')
    // The kinds of second factor, comma-separated; null where the organisation may not see them (not home).
    .addColumn('factors', 'varchar(100)')
    .addColumn('decision', 'varchar(8)', (c) => c.notNull())
    .addPrimaryKeyConstraint('access_review_items_pk', ['review_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('access_review_items').execute();
  await db.schema.dropTable('access_reviews').execute();
}
