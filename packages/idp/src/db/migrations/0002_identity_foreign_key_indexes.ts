import type { Kysely } from 'kysely';

// Lists of many identities read addresses and identifiers by identity id, and deleting an identity cascades along
// these keys: without an index each of those is a scan of the whole table.
const INDEXES = [
  ['identity_verifiable_addresses_identity_idx', 'identity_verifiable_addresses', 'identity_id'],
  ['identity_recovery_addresses_identity_idx', 'identity_recovery_addresses', 'identity_id'],
  ['identity_credential_identifiers_identity_idx', 'identity_credential_identifiers', 'identity_id'],
  ['identity_credential_identifiers_credential_idx', 'identity_credential_identifiers', 'credential_id'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, column] of INDEXES) await db.schema.createIndex(name).on(table).column(column).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
