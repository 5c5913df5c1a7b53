import { migrateToLatest, type Db } from '@portaal/idp';
import { migrateRelations } from '@portaal/relations';

/** Applies every package's migrations in dependency order; returns the names applied. */
export async function migrateAll(db: Db): Promise<string[]> {
  return [...(await migrateToLatest(db)), ...(await migrateRelations(db.kysely))];
}
