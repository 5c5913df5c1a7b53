import type { Kysely } from 'kysely';

/**
 * An organisation can be deactivated in 'Programmabeheer': nothing of it is deleted, but its membership and its data
 * roles no longer admit anyone to a data service (users/person-service.ts `mayUse`) until it is active again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('catalogue_organisations')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('catalogue_organisations').dropColumn('active').execute();
}
