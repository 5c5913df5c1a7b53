import crypto from 'node:crypto';
import type { Kysely, Transaction as KyselyTransaction } from 'kysely';
import type {
  CredentialsTable,
  Database,
  IdentitiesTable,
  RecoveryAddressesTable,
  VerifiableAddressesTable,
} from '../db/schema.js';
import { openConfig, sealConfig } from '../credentials/credential-cipher.js';
import { fixedStatement, runFixed } from '../db/fixed-statement.js';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { IdentityConflictError, IdentityNotFoundError } from './identity-errors.js';
import { DEFAULT_SCHEMA_ID, normaliseEmail, type Traits } from './identity-schema.js';

export type DbExecutor = Kysely<Database>;
/**
 * The database inside a transaction. Only `db.transaction().execute(work)` hands one out: Kysely's `Transaction` has
 * private state, so the plain database does not pass for one and a call with it does not compile. A repository
 * operation that writes several rows takes a `Transaction`, so that its writes cannot be made apart
 * (docs/architecture.md#writes-that-belong-together).
 */
export type Transaction = KyselyTransaction<Database>;
export type IdentityState = 'active' | 'inactive';

export interface VerifiableAddress {
  id: string;
  value: string;
  verified: boolean;
  via: string;
  status: string;
  verifiedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RecoveryAddress {
  id: string;
  value: string;
  via: string;
  createdAt: string;
  updatedAt: string;
}

export interface IdentityRecord {
  id: string;
  schemaId: string;
  state: IdentityState;
  stateChangedAt: string | null;
  traits: Traits;
  metadataPublic: unknown;
  metadataAdmin: unknown;
  externalId: string | null;
  createdAt: string;
  updatedAt: string;
  verifiableAddresses: VerifiableAddress[];
  recoveryAddresses: RecoveryAddress[];
}

export interface CredentialRecord {
  id: string;
  identityId: string;
  type: string;
  config: Record<string, unknown>;
  version: number;
  revision: number;
  lastUsedStep: number | null;
  identifiers: string[];
  createdAt: string;
  updatedAt: string;
}

export interface NewIdentity {
  id?: string;
  schemaId?: string;
  traits: Traits;
  state?: IdentityState;
  metadataPublic?: unknown;
  metadataAdmin?: unknown;
  externalId?: string | null;
  /** Marks the e-mail address verified (imports with `verified: true`, accepted invitations). */
  addressVerified?: boolean;
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));
const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** Writes the identity with its addresses. Throws 409 when the e-mail belongs to another identity. */
export async function insertIdentity(db: Transaction, clock: Clock, input: NewIdentity): Promise<string> {
  const now = clock.now().toISOString();
  const id = input.id ?? crypto.randomUUID();
  try {
    await db
      .insertInto('identities')
      .values({
        id,
        schema_id: input.schemaId ?? DEFAULT_SCHEMA_ID,
        state: input.state ?? 'active',
        state_changed_at: now,
        traits: JSON.stringify(input.traits),
        metadata_public: json(input.metadataPublic),
        metadata_admin: json(input.metadataAdmin),
        external_id: input.externalId ?? null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await writeAddresses(db, now, id, input.traits.email, input.addressVerified === true);
  } catch (error) {
    if (isUniqueViolation(error)) throw new IdentityConflictError();
    throw error;
  }
  return id;
}

async function writeAddresses(db: Transaction, now: string, identityId: string, email: string, verified: boolean) {
  const value = normaliseEmail(email);
  await db
    .insertInto('identity_verifiable_addresses')
    .values({
      id: crypto.randomUUID(),
      identity_id: identityId,
      value,
      via: 'email',
      verified: verified ? 1 : 0,
      status: verified ? 'completed' : 'pending',
      verified_at: verified ? now : null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('identity_recovery_addresses')
    .values({ id: crypto.randomUUID(), identity_id: identityId, value, via: 'email', created_at: now, updated_at: now })
    .execute();
}

// What every sign-in reads, in fixed statements (docs/architecture.md#fixed-statements-on-the-hot-paths).
const IDENTITY = fixedStatement('portaal_identity', 'select * from identities where id = ?');
const VERIFIABLE_ADDRESSES = fixedStatement(
  'portaal_verifiable_addresses',
  'select * from identity_verifiable_addresses where identity_id = ? order by created_at',
);
const RECOVERY_ADDRESSES = fixedStatement(
  'portaal_recovery_addresses',
  'select * from identity_recovery_addresses where identity_id = ? order by created_at',
);
const IDENTITY_BY_IDENTIFIER = fixedStatement(
  'portaal_identity_by_identifier',
  'select identity_id from identity_credential_identifiers where type = ? and identifier = ?',
);
const CREDENTIALS = fixedStatement(
  'portaal_credentials',
  `select c.*, i.identifier from identity_credentials c
   left join identity_credential_identifiers i on i.credential_id = c.id
   where c.identity_id = ? order by c.type`,
);

export async function findIdentity(db: DbExecutor, id: string): Promise<IdentityRecord | undefined> {
  const [row] = await runFixed<IdentitiesTable>(db, IDENTITY, [id]);
  if (!row) return undefined;
  const identity = toIdentityRecord(row);
  for (const a of await runFixed<VerifiableAddressesTable>(db, VERIFIABLE_ADDRESSES, [id]))
    identity.verifiableAddresses.push(toVerifiableAddress(a));
  for (const a of await runFixed<RecoveryAddressesTable>(db, RECOVERY_ADDRESSES, [id]))
    identity.recoveryAddresses.push(toRecoveryAddress(a));
  return identity;
}

/** An identity row as read, with no addresses yet; the session lookup reads the same columns joined. */
export const toIdentityRecord = (row: IdentitiesTable): IdentityRecord => ({
  id: row.id,
  schemaId: row.schema_id,
  state: row.state,
  stateChangedAt: row.state_changed_at,
  traits: JSON.parse(row.traits) as Traits,
  metadataPublic: parse(row.metadata_public),
  metadataAdmin: parse(row.metadata_admin),
  externalId: row.external_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  verifiableAddresses: [],
  recoveryAddresses: [],
});

export const toVerifiableAddress = (a: Omit<VerifiableAddressesTable, 'identity_id'>): VerifiableAddress => ({
  id: a.id,
  value: a.value,
  verified: a.verified === 1,
  via: a.via,
  status: a.status,
  verifiedAt: a.verified_at,
  createdAt: a.created_at,
  updatedAt: a.updated_at,
});

export const toRecoveryAddress = (a: Omit<RecoveryAddressesTable, 'identity_id'>): RecoveryAddress => ({
  id: a.id,
  value: a.value,
  via: a.via,
  createdAt: a.created_at,
  updatedAt: a.updated_at,
});

/** Loads identities with their addresses, in the order of `ids`. */
export async function findIdentities(db: DbExecutor, ids: string[]): Promise<IdentityRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('identities').selectAll().where('id', 'in', ids).execute();
  const [verifiable, recovery] = await Promise.all([
    db
      .selectFrom('identity_verifiable_addresses')
      .selectAll()
      .where('identity_id', 'in', ids)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('identity_recovery_addresses')
      .selectAll()
      .where('identity_id', 'in', ids)
      .orderBy('created_at')
      .execute(),
  ]);
  const byId = new Map(rows.map((row): [string, IdentityRecord] => [row.id, toIdentityRecord(row)]));
  for (const a of verifiable) byId.get(a.identity_id)?.verifiableAddresses.push(toVerifiableAddress(a));
  for (const a of recovery) byId.get(a.identity_id)?.recoveryAddresses.push(toRecoveryAddress(a));
  return ids.map((id) => byId.get(id)).filter((identity): identity is IdentityRecord => identity !== undefined);
}

/** The identity whose credential of `type` has this identifier (e-mail for passwords), if any. */
export async function findIdentityIdByIdentifier(
  db: DbExecutor,
  type: string,
  identifier: string,
): Promise<string | undefined> {
  return findIdentityIdByExactIdentifier(db, type, normaliseEmail(identifier));
}

/** The identity whose credential of `type` has exactly this identifier (a passkey's user handle), if any. */
export async function findIdentityIdByExactIdentifier(
  db: DbExecutor,
  type: string,
  identifier: string,
): Promise<string | undefined> {
  const [row] = await runFixed<{ identity_id: string }>(db, IDENTITY_BY_IDENTIFIER, [type, identifier]);
  return row?.identity_id;
}

/** The identity with this recovery (or verification) address. */
export async function findIdentityIdByAddress(db: DbExecutor, address: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('identity_recovery_addresses')
    .select('identity_id')
    .where('value', '=', normaliseEmail(address))
    .executeTakeFirst();
  return row?.identity_id;
}

const toCredentialRecord = (row: CredentialsTable, identifiers: string[]): CredentialRecord => ({
  id: row.id,
  identityId: row.identity_id,
  type: row.type,
  config: openConfig(row.type, JSON.parse(row.config) as Record<string, unknown>),
  version: row.version,
  revision: row.revision,
  lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
  identifiers,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** One identity's credentials with their identifiers, ordered by type, in one statement (it runs per request). */
export async function findCredentials(db: DbExecutor, identityId: string): Promise<CredentialRecord[]> {
  const rows = await runFixed<CredentialsTable & { identifier: string | null }>(db, CREDENTIALS, [identityId]);
  const credentials: CredentialRecord[] = [];
  // An identity has one credential per type, so the rows of one credential follow each other.
  for (const { identifier, ...row } of rows) {
    const last = credentials.at(-1);
    const credential = last?.id === row.id ? last : toCredentialRecord(row, []);
    if (credential !== last) credentials.push(credential);
    if (identifier !== null) credential.identifiers.push(identifier);
  }
  return credentials;
}

export async function findCredentialsOf(
  db: DbExecutor,
  identityIds: string[],
): Promise<Map<string, CredentialRecord[]>> {
  const result = new Map<string, CredentialRecord[]>();
  if (identityIds.length === 0) return result;
  const [rows, identifiers] = await Promise.all([
    db.selectFrom('identity_credentials').selectAll().where('identity_id', 'in', identityIds).orderBy('type').execute(),
    db
      .selectFrom('identity_credential_identifiers')
      .select(['credential_id', 'identifier'])
      .where('identity_id', 'in', identityIds)
      .execute(),
  ]);
  const identifiersOf = new Map<string, string[]>();
  for (const { credential_id, identifier } of identifiers)
    identifiersOf.set(credential_id, [...(identifiersOf.get(credential_id) ?? []), identifier]);
  for (const row of rows) {
    const list = result.get(row.identity_id) ?? [];
    list.push(toCredentialRecord(row, identifiersOf.get(row.id) ?? []));
    result.set(row.identity_id, list);
  }
  return result;
}

export async function findCredential(
  db: DbExecutor,
  identityId: string,
  type: string,
): Promise<CredentialRecord | undefined> {
  return (await findCredentials(db, identityId)).find((c) => c.type === type);
}

/** Creates or replaces the identity's credential of `type`, with its identifiers. */
export async function saveCredential(
  db: Transaction,
  clock: Clock,
  identityId: string,
  type: string,
  config: Record<string, unknown>,
  identifiers: string[],
): Promise<void> {
  const now = clock.now().toISOString();
  const existing = await db
    .selectFrom('identity_credentials')
    .select(['id'])
    .where('identity_id', '=', identityId)
    .where('type', '=', type)
    .executeTakeFirst();
  const id = existing?.id ?? crypto.randomUUID();
  try {
    if (existing) {
      await db
        .updateTable('identity_credentials')
        .set((eb) => ({
          config: JSON.stringify(sealConfig(type, config)),
          updated_at: now,
          revision: eb('revision', '+', 1),
          last_used_step: null,
        }))
        .where('id', '=', id)
        .execute();
      await db.deleteFrom('identity_credential_identifiers').where('credential_id', '=', id).execute();
    } else {
      await db
        .insertInto('identity_credentials')
        .values({
          id,
          identity_id: identityId,
          type,
          config: JSON.stringify(sealConfig(type, config)),
          version: 0,
          revision: 0,
          last_used_step: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    for (const identifier of identifiers) {
      await db
        .insertInto('identity_credential_identifiers')
        .values({ id: crypto.randomUUID(), identity_id: identityId, credential_id: id, type, identifier })
        .execute();
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new IdentityConflictError();
    throw error;
  }
  await touchIdentity(db, clock, identityId);
}

/**
 * Replaces a credential's config only if nobody changed it since it was read (`revision`), so that one-time secrets
 * (lookup codes) cannot be spent twice by concurrent requests. Returns false when the race was lost.
 */
export async function updateCredentialConfigIfUnchanged(
  db: DbExecutor,
  clock: Clock,
  credential: CredentialRecord,
  config: Record<string, unknown>,
): Promise<boolean> {
  const result = await db
    .updateTable('identity_credentials')
    .set({
      config: JSON.stringify(sealConfig(credential.type, config)),
      revision: credential.revision + 1,
      updated_at: clock.now().toISOString(),
    })
    .where('id', '=', credential.id)
    .where('revision', '=', credential.revision)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a TOTP time step as used, atomically; false when this or a later step was used already (replay). */
export async function claimTotpStep(db: DbExecutor, credentialId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('identity_credentials')
    .set({ last_used_step: step })
    .where('id', '=', credentialId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteCredential(
  db: Transaction,
  clock: Clock,
  identityId: string,
  type: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('identity_credentials')
    .where('identity_id', '=', identityId)
    .where('type', '=', type)
    .executeTakeFirst();
  const deleted = Number(result.numDeletedRows) > 0;
  // Nothing removed is nothing changed: a refused removal (404) leaves the identity as it was.
  if (deleted) await touchIdentity(db, clock, identityId);
  return deleted;
}

/**
 * Replaces traits; when the e-mail changes, the password and security-key identifiers and the addresses follow (new
 * address unverified). Throws 409 when the new e-mail belongs to another identity.
 */
export async function updateIdentity(
  db: Transaction,
  clock: Clock,
  id: string,
  changes: {
    traits?: Traits;
    state?: IdentityState;
    metadataPublic?: unknown;
    metadataAdmin?: unknown;
    externalId?: string | null;
  },
): Promise<void> {
  const now = clock.now().toISOString();
  const current = await findIdentity(db, id);
  if (!current) throw new IdentityNotFoundError();
  const newEmail =
    changes.traits && normaliseEmail(changes.traits.email) !== normaliseEmail(current.traits.email)
      ? normaliseEmail(changes.traits.email)
      : undefined;
  // A refusal is decided before the first write; the unique indexes below stay the guard against a race.
  if (newEmail !== undefined && (await addressTakenByOther(db, id, newEmail))) throw new IdentityConflictError();
  try {
    await db
      .updateTable('identities')
      .set({
        ...(changes.traits ? { traits: JSON.stringify(changes.traits) } : {}),
        ...(changes.state && changes.state !== current.state ? { state: changes.state, state_changed_at: now } : {}),
        ...('metadataPublic' in changes ? { metadata_public: json(changes.metadataPublic) } : {}),
        ...('metadataAdmin' in changes ? { metadata_admin: json(changes.metadataAdmin) } : {}),
        ...('externalId' in changes ? { external_id: changes.externalId ?? null } : {}),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
    if (newEmail !== undefined) {
      const email = newEmail;
      await db.deleteFrom('identity_verifiable_addresses').where('identity_id', '=', id).execute();
      await db.deleteFrom('identity_recovery_addresses').where('identity_id', '=', id).execute();
      await writeAddresses(db, now, id, email, false);
      await db
        .updateTable('identity_credential_identifiers')
        .set({ identifier: email })
        .where('identity_id', '=', id)
        // Both are keyed on the e-mail trait by the schema (`ory.sh/kratos.credentials.<type>.identifier`).
        .where('type', 'in', ['password', 'webauthn'])
        .execute();
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new IdentityConflictError();
    throw error;
  }
}

/** Whether another identity has this (normalised) address, as an address or as what it signs in with. */
async function addressTakenByOther(db: DbExecutor, id: string, email: string): Promise<boolean> {
  const [address, identifier] = await Promise.all([
    db
      .selectFrom('identity_recovery_addresses')
      .select('identity_id')
      .where('value', '=', email)
      .where('identity_id', '!=', id)
      .unionAll(
        db
          .selectFrom('identity_verifiable_addresses')
          .select('identity_id')
          .where('value', '=', email)
          .where('identity_id', '!=', id),
      )
      .executeTakeFirst(),
    db
      .selectFrom('identity_credential_identifiers')
      .select('identity_id')
      .where('identifier', '=', email)
      .where('type', 'in', ['password', 'webauthn'])
      .where('identity_id', '!=', id)
      .executeTakeFirst(),
  ]);
  return address !== undefined || identifier !== undefined;
}

export async function markAddressVerified(
  db: DbExecutor,
  clock: Clock,
  identityId: string,
  address: string,
): Promise<void> {
  const now = clock.now().toISOString();
  await db
    .updateTable('identity_verifiable_addresses')
    .set({ verified: 1, status: 'completed', verified_at: now, updated_at: now })
    .where('identity_id', '=', identityId)
    .where('value', '=', normaliseEmail(address))
    .where('verified', '=', 0)
    .execute();
}

export async function markAddressSent(db: DbExecutor, clock: Clock, address: string): Promise<void> {
  await db
    .updateTable('identity_verifiable_addresses')
    .set({ status: 'sent', updated_at: clock.now().toISOString() })
    .where('value', '=', normaliseEmail(address))
    .where('status', '=', 'pending')
    .execute();
}

/** Deletes an identity with everything that cascades from it, and the mails sent to it (AVG article 17). */
export async function deleteIdentity(db: Transaction, id: string): Promise<boolean> {
  const identity = await findIdentity(db, id);
  const result = await db.deleteFrom('identities').where('id', '=', id).executeTakeFirst();
  if (identity) {
    const email = identity.traits.email.toLowerCase();
    await db
      .deleteFrom('courier_messages')
      .where((eb) => eb(eb.fn('lower', ['recipient']), '=', email))
      .execute();
  }
  return Number(result.numDeletedRows) > 0;
}

async function touchIdentity(db: Transaction, clock: Clock, id: string) {
  await db.updateTable('identities').set({ updated_at: clock.now().toISOString() }).where('id', '=', id).execute();
}
