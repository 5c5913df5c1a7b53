import type { ImportedIdentity } from '@portaal/idp';
import pg from 'pg';

// Reads an Ory Kratos installation's own PostgreSQL tables (v1.0 to v26; docs/kratos-compatibility.md#moving-from-
// ory-kratos): identities with their credentials, identifiers and addresses, a batch at a time, in one network.

/** Kratos' timestamps are `timestamp without time zone` holding UTC: read as such, whatever the machine's zone. */
const UTC_TIMESTAMP = 1114;
const asUtc = (text: string) => new Date(`${text.replace(' ', 'T')}Z`).toISOString();

/** A credential as Kratos keeps it: the shape the portal imports, its config not yet mapped. */
export type KratosCredential = ImportedIdentity['credentials'][number];

export interface KratosIdentity {
  id: string;
  schemaId: string;
  state: string;
  stateChangedAt: string | null;
  traits: Record<string, unknown>;
  metadataPublic: unknown;
  metadataAdmin: unknown;
  externalId: string | null;
  createdAt: string;
  updatedAt: string;
  credentials: KratosCredential[];
  verifiableAddresses: ImportedIdentity['verifiableAddresses'];
  recoveryAddresses: ImportedIdentity['recoveryAddresses'];
}

/** A connection that reads Kratos' (or Keto's) timestamps as UTC. */
export async function connectReadOnly(url: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === UTC_TIMESTAMP ? asUtc : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  await client.connect();
  // Nothing here writes: the installation is read as it stands.
  await client.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY');
  return client;
}

/** The network Kratos (or Keto) serves: the oldest one, as it picks it itself. */
export async function networkOf(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ id: string }>('SELECT id FROM networks ORDER BY created_at LIMIT 1');
  if (!rows[0]) throw new Error('geen Kratos-database: de tabel networks is leeg');
  return rows[0].id;
}

/**
 * What `readIdentities` selects for the columns later releases added (`external_id`, v25.4): the column where the
 * installation has it, NULL where not. Read once per import.
 */
export async function identityColumns(client: pg.Client): Promise<{ externalId: string }> {
  const { rows } = await client.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
      WHERE table_name = 'identities' AND column_name = 'external_id'`,
  );
  return { externalId: rows.length > 0 ? 'external_id' : 'NULL AS external_id' };
}

/**
 * The identities of the network after `after` (by id), at most `limit`, each with everything the importer moves.
 */
export async function readIdentities(
  client: pg.Client,
  { nid, columns }: { nid: string; columns: { externalId: string } },
  after: string | null,
  limit: number,
): Promise<KratosIdentity[]> {
  const { externalId } = columns;
  const { rows } = await client.query(
    `SELECT id, schema_id, state, state_changed_at, traits, metadata_public, metadata_admin, ${externalId},
            created_at, updated_at
       FROM identities WHERE nid = $1 AND ($2::uuid IS NULL OR id > $2::uuid) ORDER BY id LIMIT $3`,
    [nid, after, limit],
  );
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id as string);
  const credentials = await client.query(
    `SELECT c.id, c.identity_id, t.name AS type, c.config, c.version, c.created_at, c.updated_at,
            COALESCE(array_agg(i.identifier ORDER BY i.identifier) FILTER (WHERE i.identifier IS NOT NULL), '{}')
              AS identifiers
       FROM identity_credentials c
       JOIN identity_credential_types t ON t.id = c.identity_credential_type_id
       LEFT JOIN identity_credential_identifiers i ON i.identity_credential_id = c.id
      WHERE c.nid = $1 AND c.identity_id = ANY($2::uuid[])
      GROUP BY c.id, t.name ORDER BY t.name`,
    [nid, ids],
  );
  const verifiable = await client.query(
    `SELECT identity_id, value, via, verified, status, verified_at, created_at FROM identity_verifiable_addresses
      WHERE nid = $1 AND identity_id = ANY($2::uuid[]) ORDER BY created_at`,
    [nid, ids],
  );
  const recovery = await client.query(
    `SELECT identity_id, value, via, created_at FROM identity_recovery_addresses
      WHERE nid = $1 AND identity_id = ANY($2::uuid[]) ORDER BY created_at`,
    [nid, ids],
  );
  const of = <T extends { identity_id: string }>(list: T[], id: string) => list.filter((r) => r.identity_id === id);
  return rows.map((row) => ({
    id: row.id,
    schemaId: row.schema_id,
    state: row.state,
    stateChangedAt: row.state_changed_at,
    traits: row.traits,
    metadataPublic: row.metadata_public,
    metadataAdmin: row.metadata_admin,
    externalId: row.external_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    credentials: of(credentials.rows, row.id).map((c) => ({
      type: c.type,
      config: c.config ?? {},
      version: c.version ?? 0,
      createdAt: c.created_at,
      updatedAt: c.updated_at,
      identifiers: c.identifiers,
    })),
    verifiableAddresses: of(verifiable.rows, row.id).map((a) => ({
      value: a.value,
      via: a.via,
      verified: a.verified,
      status: a.status,
      verifiedAt: a.verified_at,
      createdAt: a.created_at,
    })),
    recoveryAddresses: of(recovery.rows, row.id).map((a) => ({ value: a.value, via: a.via, createdAt: a.created_at })),
  }));
}
