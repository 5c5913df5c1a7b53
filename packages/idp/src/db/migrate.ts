import { Migrator, type Migration, type MigrationResultSet } from 'kysely';
import type { Db } from './database.js';
import * as initial from './migrations/0001_initial.js';
import * as foreignKeyIndexes from './migrations/0002_identity_foreign_key_indexes.js';
import * as sessionPreviousToken from './migrations/0003_session_previous_token.js';
import * as checkMarks from './migrations/0004_check_marks.js';

// Migrations are listed in code so that the compiled package carries them; names sort in apply order.
const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_identity_foreign_key_indexes': foreignKeyIndexes,
  '0003_session_previous_token': sessionPreviousToken,
  '0004_check_marks': checkMarks,
};

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'idp_migrations',
    migrationLockTableName: 'idp_migrations_lock',
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    throw result.error instanceof Error ? result.error : new Error(String(result.error));
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
