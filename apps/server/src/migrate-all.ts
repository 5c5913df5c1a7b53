import { migrateToLatest, type Db } from '@portaal/idp';
import { migrateRelations } from '@portaal/relations';
import { migrateUsersApi } from '@portaal/users-api';

/** Applies every package's migrations in dependency order; returns the names applied. */
export async function migrateAll(db: Db): Promise<string[]> {
  // Processes starting together on a new database must not both create the same tables.
  return db.exclusively(async () => [
    ...(await migrateToLatest(db)),
    ...(await migrateRelations(db.kysely)),
    ...(await migrateUsersApi(db.kysely)),
  ]);
}
