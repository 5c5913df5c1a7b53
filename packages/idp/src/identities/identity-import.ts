import crypto from 'node:crypto';
import { sealConfig } from '../credentials/credential-cipher.js';
import type { IdentityRecord, RecoveryAddress, Transaction, VerifiableAddress } from './identity-repository.js';

/** An identity as another Kratos-compatible store holds it: its id, times, addresses and credentials kept. */
export interface ImportedIdentity extends Omit<IdentityRecord, 'verifiableAddresses' | 'recoveryAddresses'> {
  verifiableAddresses: Omit<VerifiableAddress, 'id' | 'updatedAt'>[];
  recoveryAddresses: Omit<RecoveryAddress, 'id' | 'updatedAt'>[];
  /** Configs in clear, as Kratos keeps them: their secrets are sealed here. */
  credentials: {
    type: string;
    config: Record<string, unknown>;
    version: number;
    createdAt: string;
    updatedAt: string;
    identifiers: string[];
  }[];
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * Writes an imported identity in the caller's transaction, unless it is there already (`exists`, by its id: an
 * import runs again without a change) or one of its addresses or identifiers is another identity's (`conflict`,
 * nothing written). Decided before the first write, so that a refused identity leaves the batch's transaction intact.
 */
export async function importIdentity(
  db: Transaction,
  identity: ImportedIdentity,
): Promise<'created' | 'exists' | 'conflict'> {
  const existing = await db.selectFrom('identities').select('id').where('id', '=', identity.id).executeTakeFirst();
  if (existing) return 'exists';
  const identifiers = identity.credentials.flatMap((c) =>
    c.identifiers.map((identifier) => ({ type: c.type, identifier })),
  );
  for (const { type, identifier } of identifiers) {
    const taken = await db
      .selectFrom('identity_credential_identifiers')
      .select('id')
      .where('type', '=', type)
      .where('identifier', '=', identifier)
      .executeTakeFirst();
    if (taken) return 'conflict';
  }
  for (const address of identity.verifiableAddresses) {
    const taken = await db
      .selectFrom('identity_verifiable_addresses')
      .select('id')
      .where('via', '=', address.via)
      .where('value', '=', address.value)
      .executeTakeFirst();
    if (taken) return 'conflict';
  }
  await db
    .insertInto('identities')
    .values({
      id: identity.id,
      schema_id: identity.schemaId,
      state: identity.state,
      state_changed_at: identity.stateChangedAt,
      traits: JSON.stringify(identity.traits),
      metadata_public: json(identity.metadataPublic),
      metadata_admin: json(identity.metadataAdmin),
      external_id: identity.externalId,
      created_at: identity.createdAt,
      updated_at: identity.updatedAt,
    })
    .execute();
  // One statement per table, whatever the number of rows: on PostgreSQL each statement is a round trip.
  const credentials = identity.credentials.map((credential) => ({ ...credential, id: crypto.randomUUID() }));
  const verifiable = identity.verifiableAddresses.map((address) => ({
    id: crypto.randomUUID(),
    identity_id: identity.id,
    value: address.value,
    via: address.via,
    verified: address.verified ? 1 : 0,
    status: address.status,
    verified_at: address.verifiedAt,
    created_at: address.createdAt,
    updated_at: address.createdAt,
  }));
  const recovery = identity.recoveryAddresses.map((address) => ({
    id: crypto.randomUUID(),
    identity_id: identity.id,
    value: address.value,
    via: address.via,
    created_at: address.createdAt,
    updated_at: address.createdAt,
  }));
  const credentialRows = credentials.map((credential) => ({
    id: credential.id,
    identity_id: identity.id,
    type: credential.type,
    config: JSON.stringify(sealConfig(credential.type, credential.config)),
    version: credential.version,
    revision: 0,
    last_used_step: null,
    created_at: credential.createdAt,
    updated_at: credential.updatedAt,
  }));
  const identifierRows = credentials.flatMap((credential) =>
    credential.identifiers.map((identifier) => ({
      id: crypto.randomUUID(),
      identity_id: identity.id,
      credential_id: credential.id,
      type: credential.type,
      identifier,
    })),
  );
  if (verifiable.length > 0) await db.insertInto('identity_verifiable_addresses').values(verifiable).execute();
  if (recovery.length > 0) await db.insertInto('identity_recovery_addresses').values(recovery).execute();
  if (credentialRows.length > 0) await db.insertInto('identity_credentials').values(credentialRows).execute();
  if (identifierRows.length > 0)
    await db.insertInto('identity_credential_identifiers').values(identifierRows).execute();
  return 'created';
}
