import { Migrator, type Kysely, type Migration } from 'kysely';
import * as relationTuples from './migrations/0001_relation_tuples.js';

const migrations: Record<string, Migration> = {
  '0001_relation_tuples': relationTuples,
};

/** Applies the relation store's migrations, tracked in their own table next to the identity provider's. */
export async function migrateRelations<DB>(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'relations_migrations',
    migrationLockTableName: 'relations_migrations_lock',
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
