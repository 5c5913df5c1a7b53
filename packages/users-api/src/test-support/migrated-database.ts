import { migrateToLatest, openDatabase, type Db } from '@portaal/idp';
import { migrateRelations } from '@portaal/relations';
import { migrateUsersApi } from '../db/migrate.js';

/**
 * A database in memory with every package's tables, in the product's order: the Users API's migrations count
 * changes to the identity provider's and the tuple store's tables, so they come after those (apps/server's
 * migrate-all.ts).
 */
export async function migratedDatabase(): Promise<Db> {
  const db = openDatabase(':memory:');
  await migrateToLatest(db);
  await migrateRelations(db.kysely);
  await migrateUsersApi(db.kysely);
  return db;
}
