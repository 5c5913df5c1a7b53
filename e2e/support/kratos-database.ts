import crypto, { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Algorithm, hash as argon2Hash } from '@node-rs/argon2';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import pg from 'pg';
import { coseKey, p256KeyPair, type SoftwareKey } from './software-authenticator.js';

/*
 * A database shaped as Ory Kratos and Ory Keto leave theirs on PostgreSQL, for the acceptance test of
 * `portaal import kratos` (issue 32), filled through SQL with people whose credentials were made with Kratos' own
 * algorithms and parameters. kratos-database.md beside this file says what the importer must read.
 *
 * The DDL here is written for this fixture after reading Ory's published migrations; none of it is copied. It gives
 * the tables the importer reads, with the columns, types, primary keys, foreign keys, NOT NULLs, defaults, checks
 * and unique indexes they have after the migrations of the release named, and a few of the plain indexes.
 *
 * Kratos (github.com/ory/kratos): v26.2.0 (March 2026) unless another release is asked for; v1.0.0, v1.1.0,
 * v1.2.0, v1.3.0/v1.3.1 and v25.4.0 are the other shapes, as far as these tables go. Read in
 * persistence/sql/migrations/sql (the PostgreSQL variant where a migration has one, else the dialect-free one):
 * the network table of oryx/networkx (20150100000001); the first identity migrations of 20191100000001 (identities,
 * credential types, credentials, identifiers), 20191100000008 (verifiable addresses) and 20200519101057 (recovery
 * addresses); 20200705105359 (the traits schema column renamed to schema_id); 20200831110752 (the code and expiry
 * columns dropped from verifiable addresses); 20210410175418 (a nullable nid on every table with a foreign key to
 * networks, and the unique keys made per network); 20210504121624 (state and state_changed_at); 20210817181232 (the
 * credential type on identifiers and their key per network and type); 20220301102701 (credential version);
 * 20220420102701 (metadata_public and metadata_admin); 20220610155809 (addresses lower-cased); 20230706000000
 * (available_aal, v1.1); 20230907085000 (organization_id, v1.1); 20240923095000 (its index, v25.4); 20250708190000
 * (external_id with its check and unique index, v25.4); 20251104000000 and 20251105000000 plus the Go migration
 * persistence/sql/migrations/go/20251105000000000000_identity_id_not_null_fks.go (identity_id on identifiers,
 * backfilled, then NOT NULL with a foreign key, v26.2); and the credential type rows of 20201201161451,
 * 20210805122535, 20210813150152, 20210816113956, 20230712173852 (code, v1.1), 20231108111100 (passkey, v1.2) and
 * 20241203105600 (saml, v25.4). Not reproduced: the recovery addresses' break_glass_for_organization column of
 * 20260327101213, which is on Kratos' main branch after v26.2.0. The JSON in the credentials' config column follows
 * identity/credentials_password.go, credentials_totp.go, credentials_lookup.go and credentials_webauthn.go, the
 * TOTP and lookup strategies in selfservice/strategy, and the hashers in hash/ with their defaults in
 * driver/config/config.go and embedx/config.schema.json.
 *
 * Keto (github.com/ory/keto): v0.11.1 to v26.2.0, which leave the same tables. Read in
 * internal/persistence/sql/migrations/sql: 20220513200300 to 20220513200600 (the UUID-keyed tuple table that
 * replaced the v0.8 one, and keto_uuid_mappings; v0.9), 20220513200400000001 (the mapping's check constraint
 * dropped; v0.10), 20230228091200 (the network foreign key made cascading; v0.11.1); the mapping itself in
 * internal/persistence/sql/uuid_mapping.go and internal/relationtuple/uuid_mapping.go.
 */

/** A connection to the (empty) database the Kratos or Keto tables go into. */
type Queryable = pg.Client | pg.PoolClient;

/** The Kratos releases whose tables this fixture can make; v1.3 stands for v1.3.0 and v1.3.1. */
export type KratosVersion = 'v1.0' | 'v1.1' | 'v1.2' | 'v1.3' | 'v25.4' | 'v26.2';

const KRATOS_VERSIONS: readonly KratosVersion[] = ['v1.0', 'v1.1', 'v1.2', 'v1.3', 'v25.4', 'v26.2'];
const atLeast = (version: KratosVersion, minimum: KratosVersion) =>
  KRATOS_VERSIONS.indexOf(version) >= KRATOS_VERSIONS.indexOf(minimum);

/** The credential type rows Kratos' migrations insert, with the ids they give them, and from which release. */
const CREDENTIAL_TYPES: readonly { name: string; id: string; since: KratosVersion }[] = [
  { name: 'password', id: '78c1b41d-8341-4507-aa60-aff1d4369670', since: 'v1.0' },
  { name: 'oidc', id: '6fa5e2e0-bfce-4631-b62b-cf2b0252b289', since: 'v1.0' },
  { name: 'totp', id: '5e29b036-aa47-457f-9fe6-aa8b854a752b', since: 'v1.0' },
  { name: 'lookup_secret', id: '567a0730-7f48-4dd7-a13d-df87a51c245f', since: 'v1.0' },
  { name: 'webauthn', id: '6b213fa0-e6ad-46cb-8878-b088d2ce2e3c', since: 'v1.0' },
  { name: 'code', id: '14f3b7e2-8725-4068-be39-8a796485fd97', since: 'v1.1' },
  { name: 'passkey', id: '8d0ca544-9bf6-45d3-bd75-0bbb3aeba3c7', since: 'v1.2' },
  { name: 'saml', id: '7bddcf6c-f50e-4a18-9b0f-429114c33419', since: 'v25.4' },
];

/** `timestamp without time zone` as Kratos and Keto write it: the UTC wall clock. */
const utc = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');

/**
 * The network the rows belong to: the oldest row of `networks`, made when there is none, as Ory's network manager
 * (oryx/networkx) does when Kratos or Keto first starts.
 */
async function ensureNetwork(client: Queryable): Promise<string> {
  const { rows } = await client.query<{ id: string }>('SELECT id FROM networks ORDER BY created_at ASC LIMIT 1');
  if (rows[0]) return rows[0].id;
  const id = randomUUID();
  const now = utc(new Date());
  await client.query('INSERT INTO networks (id, created_at, updated_at) VALUES ($1, $2, $3)', [id, now, now]);
  return id;
}

const NETWORKS_TABLE = `CREATE TABLE IF NOT EXISTS networks (
  id uuid NOT NULL PRIMARY KEY,
  created_at timestamp NOT NULL,
  updated_at timestamp NOT NULL
)`;

/** The nid column every Kratos table got in 2021: nullable on PostgreSQL, removed with its network. */
const nidColumn = (table: string) =>
  `nid uuid CONSTRAINT ${table}_nid_fk_idx REFERENCES networks (id) ON UPDATE RESTRICT ON DELETE CASCADE`;

function kratosStatements(version: KratosVersion): string[] {
  const identityExtras = [
    ...(atLeast(version, 'v1.1') ? ['available_aal varchar(4)', 'organization_id uuid'] : []),
    ...(atLeast(version, 'v25.4') ? ["external_id varchar(64) CHECK (external_id IS NULL OR external_id <> '')"] : []),
  ];
  const identifierOwner = atLeast(version, 'v26.2')
    ? [
        'identity_id uuid NOT NULL CONSTRAINT identity_credential_identifiers_identities_id_fk ' +
          'REFERENCES identities (id) ON UPDATE RESTRICT ON DELETE CASCADE',
      ]
    : [];
  const columns = (list: string[]) => list.map((column) => `  ${column}`).join(',\n');
  return [
    NETWORKS_TABLE,
    `CREATE TABLE identities (\n${columns([
      'id uuid NOT NULL PRIMARY KEY',
      nidColumn('identities'),
      'schema_id varchar(2048) NOT NULL',
      'traits jsonb NOT NULL',
      "state varchar(255) NOT NULL DEFAULT 'active'",
      'state_changed_at timestamp',
      'metadata_public jsonb',
      'metadata_admin jsonb',
      ...identityExtras,
      'created_at timestamp NOT NULL',
      'updated_at timestamp NOT NULL',
    ])}\n)`,
    'CREATE INDEX identities_nid_id_idx ON identities (nid, id)',
    ...(atLeast(version, 'v25.4')
      ? [
          'CREATE INDEX identities_nid_organization_id_idx ON identities (organization_id)',
          'CREATE UNIQUE INDEX identities_nid_external_id_idx ON identities (nid, external_id) ' +
            'WHERE external_id IS NOT NULL',
        ]
      : []),
    `CREATE TABLE identity_credential_types (\n${columns([
      'id uuid NOT NULL PRIMARY KEY',
      'name varchar(32) NOT NULL',
    ])}\n)`,
    'CREATE UNIQUE INDEX identity_credential_types_name_idx ON identity_credential_types (name)',
    `CREATE TABLE identity_credentials (\n${columns([
      'id uuid NOT NULL PRIMARY KEY',
      nidColumn('identity_credentials'),
      'identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE',
      'identity_credential_type_id uuid NOT NULL REFERENCES identity_credential_types (id) ON DELETE CASCADE',
      'config jsonb NOT NULL',
      'version integer NOT NULL DEFAULT 0',
      'created_at timestamp NOT NULL',
      'updated_at timestamp NOT NULL',
    ])}\n)`,
    'CREATE INDEX identity_credentials_identity_id_idx ON identity_credentials (identity_id)',
    `CREATE TABLE identity_credential_identifiers (\n${columns([
      'id uuid NOT NULL PRIMARY KEY',
      nidColumn('identity_credential_identifiers'),
      'identity_credential_id uuid NOT NULL REFERENCES identity_credentials (id) ON DELETE CASCADE',
      'identity_credential_type_id uuid NOT NULL CONSTRAINT identity_credential_identifiers_type_id_fk_idx ' +
        'REFERENCES identity_credential_types (id) ON UPDATE RESTRICT ON DELETE CASCADE',
      ...identifierOwner,
      'identifier varchar(255) NOT NULL',
      'created_at timestamp NOT NULL',
      'updated_at timestamp NOT NULL',
    ])}\n)`,
    'CREATE UNIQUE INDEX identity_credential_identifiers_identifier_nid_type_uq_idx ' +
      'ON identity_credential_identifiers (nid, identity_credential_type_id, identifier)',
    'CREATE INDEX identity_credential_identifiers_ici_nid_i_idx ' +
      'ON identity_credential_identifiers (identity_credential_id, nid, identifier)',
    `CREATE TABLE identity_verifiable_addresses (\n${columns([
      'id uuid NOT NULL PRIMARY KEY',
      nidColumn('identity_verifiable_addresses'),
      'identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE',
      'via varchar(16) NOT NULL',
      'value varchar(400) NOT NULL',
      'verified boolean NOT NULL',
      'status varchar(16) NOT NULL',
      'verified_at timestamp',
      'created_at timestamp NOT NULL',
      'updated_at timestamp NOT NULL',
    ])}\n)`,
    'CREATE UNIQUE INDEX identity_verifiable_addresses_status_via_uq_idx ' +
      'ON identity_verifiable_addresses (nid, via, value)',
    `CREATE TABLE identity_recovery_addresses (\n${columns([
      'id uuid NOT NULL PRIMARY KEY',
      nidColumn('identity_recovery_addresses'),
      'identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE',
      'via varchar(16) NOT NULL',
      'value varchar(400) NOT NULL',
      'created_at timestamp NOT NULL',
      'updated_at timestamp NOT NULL',
    ])}\n)`,
    'CREATE UNIQUE INDEX identity_recovery_addresses_status_via_uq_idx ' +
      'ON identity_recovery_addresses (nid, via, value)',
  ];
}

/**
 * Creates Kratos' identity tables in the connected, empty database as the migrations of `version` (default v26.2)
 * leave them, with the credential type rows those migrations insert, and the network row Kratos makes when it
 * first starts. Returns that network's id, the `nid` of every row.
 */
export async function createKratosSchema(
  client: Queryable,
  options: { version?: KratosVersion } = {},
): Promise<{ nid: string }> {
  const version = options.version ?? 'v26.2';
  for (const statement of kratosStatements(version)) await client.query(statement);
  for (const type of CREDENTIAL_TYPES.filter((t) => atLeast(version, t.since))) {
    await client.query('INSERT INTO identity_credential_types (id, name) VALUES ($1, $2)', [type.id, type.name]);
  }
  return { nid: await ensureNetwork(client) };
}

/**
 * Creates Keto's tuple tables in the connected database as Keto v0.11.1 to v26.2.0 leave them, and the network row
 * Keto makes when it first starts (or finds the one there, when Kratos' tables share the database). Returns its id.
 */
export async function createKetoSchema(client: Queryable): Promise<{ nid: string }> {
  const subjectIsOneKind =
    '(subject_id IS NULL AND subject_set_namespace IS NOT NULL AND subject_set_object IS NOT NULL ' +
    'AND subject_set_relation IS NOT NULL) OR (subject_id IS NOT NULL AND subject_set_namespace IS NULL ' +
    'AND subject_set_object IS NULL AND subject_set_relation IS NULL)';
  const onlyIds = 'subject_set_namespace IS NULL AND subject_set_object IS NULL AND subject_set_relation IS NULL';
  const statements = [
    NETWORKS_TABLE,
    // Named as Keto's intermediary table was before its rename; PostgreSQL keeps those names.
    `CREATE TABLE keto_relation_tuples (
  shard_id uuid NOT NULL,
  nid uuid NOT NULL CONSTRAINT keto_relation_tuples_nid_fk REFERENCES networks (id)
    ON UPDATE RESTRICT ON DELETE CASCADE,
  namespace varchar(200) NOT NULL,
  object uuid NOT NULL,
  relation varchar(64) NOT NULL,
  subject_id uuid,
  subject_set_namespace varchar(200),
  subject_set_object uuid,
  subject_set_relation varchar(64),
  commit_time timestamp NOT NULL,
  CONSTRAINT keto_relation_tuples_uuid_pkey PRIMARY KEY (shard_id, nid),
  CONSTRAINT chk_keto_rt_uuid_subject_type CHECK (${subjectIsOneKind})
)`,
    'CREATE INDEX keto_relation_tuples_uuid_subject_ids_idx ' +
      `ON keto_relation_tuples (nid, namespace, object, relation, subject_id) WHERE ${onlyIds}`,
    'CREATE INDEX keto_relation_tuples_uuid_reverse_subject_ids_idx ' +
      `ON keto_relation_tuples (nid, subject_id, relation, namespace) WHERE ${onlyIds}`,
    `CREATE TABLE keto_uuid_mappings (
  id uuid NOT NULL PRIMARY KEY,
  string_representation text NOT NULL
)`,
  ];
  for (const statement of statements) await client.query(statement);
  return { nid: await ensureNetwork(client) };
}

// ---------------------------------------------------------------------------------------------------------------
// Passwords and TOTP as Kratos makes them

/** Kratos' argon2id defaults (driver/config/config.go): 128 MiB (as KiB), 1 pass, 16-byte salt, 32-byte key. */
const KRATOS_ARGON2 = { memoryKiB: 128 * 1024, iterations: 1, saltLength: 16, keyLength: 32 } as const;
/** Kratos' bcrypt cost, also its minimum outside --dev. */
const KRATOS_BCRYPT_COST = 12;

/**
 * A password hash as Kratos stores it in `hashed_password`, made with Kratos' default parameters:
 * bcrypt `$2a$12$…` (Go's bcrypt writes `2a`; 72 bytes at most, as Kratos refuses longer), or argon2id
 * `$argon2id$v=19$m=131072,t=1,p=<2 × CPUs>$<salt>$<key>` in unpadded standard base64. Kratos' parallelism is twice
 * the number of CPUs of the machine it runs on; `parallelism` sets that number instead of this machine's.
 */
async function kratosPasswordHash(
  password: string,
  algorithm: 'bcrypt' | 'argon2id',
  options: { parallelism?: number } = {},
): Promise<string> {
  if (algorithm === 'bcrypt') {
    if (Buffer.byteLength(password) > 72) throw new Error('Kratos refuses bcrypt passwords over 72 bytes');
    return bcryptHash(password, { cost: KRATOS_BCRYPT_COST, version: '2a' });
  }
  return argon2Hash(password, {
    algorithm: Algorithm.Argon2id,
    memoryCost: KRATOS_ARGON2.memoryKiB,
    timeCost: KRATOS_ARGON2.iterations,
    parallelism: options.parallelism ?? Math.min(255, 2 * os.availableParallelism()),
    outputLen: KRATOS_ARGON2.keyLength,
    salt: crypto.randomBytes(KRATOS_ARGON2.saltLength),
  });
}

/** Percent-encodes the UTF-8 bytes of `text` that are not in `keep`, with upper-case hex, as Go's net/url does. */
function goEscape(text: string, keep: RegExp, spaceAsPlus: boolean): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (spaceAsPlus && char === ' ') out += '+';
    else if (byte < 0x80 && keep.test(char)) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;
const PATH_SAFE = /^[A-Za-z0-9\-_.~$&+,/:;=@]$/;

/**
 * The `totp_url` Kratos stores for a TOTP secret (base32, unpadded): the key URI of github.com/pquerna/otp's
 * `totp.Generate` with Kratos' options (SHA1, 6 digits, 30 s): `otpauth://totp/<issuer>:<account>?algorithm=SHA1&
 * digits=6&issuer=<issuer>&period=30&secret=<secret>`, the query sorted by key as Go encodes it. The issuer is
 * `selfservice.methods.totp.config.issuer` (default: the host of Kratos' public URL); the account name is the trait
 * marked `totp.account_name` in the identity schema, else the identity id.
 */
function kratosTotpUrl(secret: string, accountName: string, issuer: string): string {
  const query = [
    ['algorithm', 'SHA1'],
    ['digits', '6'],
    ['issuer', issuer],
    ['period', '30'],
    ['secret', secret],
  ]
    .map(([key, value]) => `${key}=${goEscape(value!, UNRESERVED, true)}`)
    .join('&');
  return `otpauth://totp${goEscape(`/${issuer}:${accountName}`, PATH_SAFE, false)}?${query}`;
}

/** RFC 4648 base32 without padding, as pquerna/otp writes secrets. */
function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// People

/** One key of a `webauthn` or `passkey` credential (identity/credentials_webauthn.go). */
export interface KratosWebAuthnKey {
  /** The credential id. */
  id: Uint8Array;
  /** The credential public key as the authenticator gave it: a COSE_Key. */
  publicKey: Uint8Array;
  /** `none` unless said. */
  attestationType?: string;
  /** 16 bytes; all zeros unless said. */
  aaguid?: Uint8Array;
  signCount?: number;
  cloneWarning?: boolean;
  displayName?: string;
  /** Kratos rounds it to the second. */
  addedAt?: Date;
  isPasswordless?: boolean;
  /** Written by Kratos from v1.3.1 on; leave out for a key registered with an older release. */
  flags?: { userPresent: boolean; userVerified: boolean; backupEligible: boolean; backupState: boolean };
  /** As `flags`: `usb`, `nfc`, `ble`, `internal`, `hybrid`. */
  transport?: string[];
}

/** An address of the person, as Kratos keeps it for verification and (unless `recovery: false`) for recovery. */
export interface KratosAddress {
  value: string;
  via?: 'email' | 'sms';
  verified: boolean;
  /** `completed` when verified; `sent` (a verification mail went out) or `pending` when not. */
  status?: 'pending' | 'sent' | 'completed';
  verifiedAt?: Date;
  recovery?: boolean;
}

/** A person as a Kratos installation holds them, for `insertKratosPerson`. */
export interface KratosPerson {
  id: string;
  /** `default` unless said. */
  schemaId?: string;
  /** The traits of the portal's identity schema (deploy/ory/identity.schema.json): `email`, `name.first/last`. */
  traits: { email: string; name?: { first?: string; last?: string } } & Record<string, unknown>;
  /** `inactive` is a blocked person. */
  state?: 'active' | 'inactive';
  stateChangedAt?: Date;
  metadataPublic?: unknown;
  metadataAdmin?: unknown;
  /** Kratos' own B2B organisation (SSO), v1.1 on; not one of the portal's organisations. */
  organizationId?: string;
  /** v25.4 on. */
  externalId?: string;
  createdAt?: Date;
  updatedAt?: Date;
  /** A hash in a format Kratos accepts (`kratosPasswordHash`, or any of kratos-database.md). */
  password?: { hashedPassword: string };
  /** A base32 secret; the URL is made as Kratos makes it (account name: the e-mail address). */
  totp?: { secret: string; issuer?: string; accountName?: string };
  /** Backup codes ('lookup secrets'); a code with `usedAt` has been used. */
  lookupSecrets?: { code: string; usedAt?: Date }[];
  /** Security keys; the user handle is the identity id's 16 bytes unless said. */
  webauthn?: { userHandle?: Uint8Array; keys: KratosWebAuthnKey[] };
  /** Passkeys (v1.2 on); Kratos' user handle is 64 random letters and digits, also the credential's identifier. */
  passkey?: { userHandle: string; keys: KratosWebAuthnKey[] };
  /** One verified e-mail address, the `email` trait, unless said. */
  addresses?: KratosAddress[];
}

/** A time in JSON as Go writes a `time.Time` rounded to the second: RFC 3339 in UTC, no fraction. */
const goTime = (date: Date) => new Date(Math.round(date.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** Kratos' normalisation of an e-mail identifier or address: trimmed and lower-cased. */
const normalisedEmail = (value: string) => value.trim().toLowerCase();

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');

function webAuthnConfig(userHandle: Uint8Array, keys: KratosWebAuthnKey[]) {
  return {
    credentials: keys.map((key) => ({
      id: base64(key.id),
      public_key: base64(key.publicKey),
      attestation_type: key.attestationType ?? 'none',
      authenticator: {
        aaguid: base64(key.aaguid ?? new Uint8Array(16)),
        sign_count: key.signCount ?? 0,
        clone_warning: key.cloneWarning ?? false,
      },
      display_name: key.displayName ?? '',
      added_at: goTime(key.addedAt ?? new Date()),
      is_passwordless: key.isPasswordless ?? false,
      ...(key.flags
        ? {
            flags: {
              user_present: key.flags.userPresent,
              user_verified: key.flags.userVerified,
              backup_eligible: key.flags.backupEligible,
              backup_state: key.flags.backupState,
            },
          }
        : {}),
      ...(key.transport ? { transport: key.transport } : {}),
    })),
    user_handle: base64(userHandle),
  };
}

interface CredentialRow {
  type: string;
  identifiers: string[];
  config: unknown;
  version: number;
}

/** The person's credentials as Kratos' strategies write them, with the identifiers Kratos gives each type. */
function credentialRows(person: KratosPerson, totpIssuer: string): CredentialRow[] {
  const email = normalisedEmail(person.traits.email);
  const rows: CredentialRow[] = [];
  if (person.password) {
    rows.push({
      type: 'password',
      identifiers: [email],
      config: { hashed_password: person.password.hashedPassword },
      version: 0,
    });
  }
  if (person.totp) {
    const url = kratosTotpUrl(
      person.totp.secret,
      person.totp.accountName ?? person.traits.email,
      person.totp.issuer ?? totpIssuer,
    );
    rows.push({ type: 'totp', identifiers: [person.id], config: { totp_url: url }, version: 0 });
  }
  if (person.lookupSecrets) {
    const codes = person.lookupSecrets.map((c) => ({ code: c.code, used_at: c.usedAt ? goTime(c.usedAt) : null }));
    rows.push({ type: 'lookup_secret', identifiers: [person.id], config: { recovery_codes: codes }, version: 0 });
  }
  if (person.webauthn) {
    const handle = person.webauthn.userHandle ?? uuidBytes(person.id);
    rows.push({
      type: 'webauthn',
      identifiers: [email],
      config: webAuthnConfig(handle, person.webauthn.keys),
      version: 1,
    });
  }
  if (person.passkey) {
    const handle = Buffer.from(person.passkey.userHandle, 'utf8');
    rows.push({
      type: 'passkey',
      identifiers: [person.passkey.userHandle],
      config: webAuthnConfig(handle, person.passkey.keys),
      version: 1,
    });
  }
  return rows;
}

/** `available_aal` as Kratos computes it: aal2 with a second factor, aal1 with a first factor only, else aal0. */
function availableAal(person: KratosPerson): string {
  const secondFactor =
    person.totp !== undefined ||
    (person.lookupSecrets ?? []).some((c) => !c.usedAt) ||
    (person.webauthn?.keys ?? []).some((k) => !k.isPasswordless);
  if (secondFactor) return 'aal2';
  const firstFactor =
    person.password !== undefined ||
    (person.passkey?.keys.length ?? 0) > 0 ||
    (person.webauthn?.keys ?? []).some((k) => k.isPasswordless);
  return firstFactor ? 'aal1' : 'aal0';
}

async function insertRow(client: Queryable, table: string, row: Record<string, unknown>): Promise<void> {
  const names = Object.keys(row);
  const placeholders = names.map((_, i) => `$${i + 1}`);
  await client.query(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${placeholders.join(', ')})`, [
    ...Object.values(row),
  ]);
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * Writes a person into Kratos' tables under network `nid` as Kratos would have: the identity, each credential with
 * its identifiers, the verifiable and recovery addresses. Columns a release does not have are left out (found in
 * the database). `totpIssuer` is Kratos' configured TOTP issuer (the portal's deploy/ory/kratos.yml).
 */
export async function insertKratosPerson(
  client: Queryable,
  nid: string,
  person: KratosPerson,
  options: { totpIssuer?: string } = {},
): Promise<void> {
  const { rows: columnRows } = await client.query<{ name: string }>(
    "SELECT table_name || '.' || column_name AS name FROM information_schema.columns WHERE table_schema = 'public'",
  );
  const has = new Set(columnRows.map((r) => r.name));
  const { rows: typeRows } = await client.query<{ id: string; name: string }>(
    'SELECT id, name FROM identity_credential_types',
  );
  const typeIds = new Map(typeRows.map((r) => [r.name, r.id]));
  const credentials = credentialRows(person, options.totpIssuer ?? 'portaal.example.nl').map((credential) => {
    const typeId = typeIds.get(credential.type);
    if (!typeId) throw new Error(`this Kratos release has no credential type ${credential.type}`);
    return { ...credential, typeId };
  });
  const created = utc(person.createdAt ?? new Date());
  const updated = utc(person.updatedAt ?? person.createdAt ?? new Date());

  await insertRow(client, 'identities', {
    id: person.id,
    nid,
    schema_id: person.schemaId ?? 'default',
    traits: JSON.stringify(person.traits),
    state: person.state ?? 'active',
    state_changed_at: person.stateChangedAt ? utc(person.stateChangedAt) : null,
    metadata_public: json(person.metadataPublic),
    metadata_admin: json(person.metadataAdmin),
    ...(has.has('identities.available_aal') ? { available_aal: availableAal(person) } : {}),
    ...(has.has('identities.organization_id') ? { organization_id: person.organizationId ?? null } : {}),
    ...(has.has('identities.external_id') ? { external_id: person.externalId ?? null } : {}),
    created_at: created,
    updated_at: updated,
  });

  for (const { typeId, ...credential } of credentials) {
    const credentialId = randomUUID();
    await insertRow(client, 'identity_credentials', {
      id: credentialId,
      nid,
      identity_id: person.id,
      identity_credential_type_id: typeId,
      config: JSON.stringify(credential.config),
      version: credential.version,
      created_at: created,
      updated_at: updated,
    });
    for (const identifier of credential.identifiers) {
      await insertRow(client, 'identity_credential_identifiers', {
        id: randomUUID(),
        nid,
        identity_credential_id: credentialId,
        identity_credential_type_id: typeId,
        ...(has.has('identity_credential_identifiers.identity_id') ? { identity_id: person.id } : {}),
        identifier,
        created_at: created,
        updated_at: updated,
      });
    }
  }

  for (const address of person.addresses ?? [{ value: person.traits.email, verified: true }]) {
    const value = normalisedEmail(address.value);
    const via = address.via ?? 'email';
    await insertRow(client, 'identity_verifiable_addresses', {
      id: randomUUID(),
      nid,
      identity_id: person.id,
      via,
      value,
      verified: address.verified,
      status: address.status ?? (address.verified ? 'completed' : 'sent'),
      verified_at: address.verified ? utc(address.verifiedAt ?? person.createdAt ?? new Date()) : null,
      created_at: created,
      updated_at: updated,
    });
    if (address.recovery === false) continue;
    await insertRow(client, 'identity_recovery_addresses', {
      id: randomUUID(),
      nid,
      identity_id: person.id,
      via,
      value,
      created_at: created,
      updated_at: updated,
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Keto

/** A relation tuple as Keto's API names it: `namespace:object#relation@subject`. */
export interface KetoTuple {
  namespace: string;
  object: string;
  relation: string;
  subjectId?: string;
  subjectSet?: { namespace: string; object: string; relation: string };
}

/**
 * The UUID Keto stores for a string (object, subject id, subject set object): a version 5 UUID of the string in the
 * namespace of the network id (`uuid.NewV5(nid, value)` of github.com/gofrs/uuid), for every string, a UUID too.
 */
function ketoUuid(nid: string, value: string): string {
  const digest = crypto.createHash('sha1').update(uuidBytes(nid)).update(value, 'utf8').digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Writes a tuple into Keto's tables under network `nid` as Keto does: each string mapped to its UUID in
 * `keto_uuid_mappings` (kept once), the tuple under a new random shard id with its commit time.
 */
export async function insertKetoTuple(
  client: Queryable,
  nid: string,
  tuple: KetoTuple,
  commitTime: Date = new Date(),
): Promise<void> {
  if ((tuple.subjectId === undefined) === (tuple.subjectSet === undefined)) {
    throw new Error('a Keto tuple has either a subject id or a subject set');
  }
  const mapped = async (value: string) => {
    const id = ketoUuid(nid, value);
    await client.query(
      'INSERT INTO keto_uuid_mappings (id, string_representation) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING',
      [id, value],
    );
    return id;
  };
  await insertRow(client, 'keto_relation_tuples', {
    shard_id: randomUUID(),
    nid,
    namespace: tuple.namespace,
    object: await mapped(tuple.object),
    relation: tuple.relation,
    subject_id: tuple.subjectId !== undefined ? await mapped(tuple.subjectId) : null,
    subject_set_namespace: tuple.subjectSet?.namespace ?? null,
    subject_set_object: tuple.subjectSet ? await mapped(tuple.subjectSet.object) : null,
    subject_set_relation: tuple.subjectSet?.relation ?? null,
    commit_time: utc(commitTime),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The people of the acceptance test

/** One person of `kratosFixturePeople`: what goes into Kratos and Keto, and what a test needs to sign them in. */
export interface KratosFixturePerson {
  /** Which case of the acceptance test this is (`pbkdf2` is made by the test itself, from an import format). */
  kind: 'bcrypt' | 'argon2id-totp-lookup' | 'webauthn' | 'unverified' | 'blocked' | 'passkey' | 'pbkdf2';
  person: KratosPerson;
  /** The address to sign in with (lower case; the traits may differ in case). */
  email: string;
  password?: string;
  totpSecret?: string;
  /** The backup codes, the one used apart. */
  backupCodes?: { unused: string[]; used: string[] };
  /** The security key or passkey, for a `SoftwareAuthenticator`'s `keys` (its `rpId` as asked). */
  key?: SoftwareKey;
  /** The person's organisations and data roles, as the portal names them (docs/architecture.md#relation-tuples). */
  tuples: KetoTuple[];
}

function softwareKey(rpId: string, userHandle: Uint8Array, signCount: number): SoftwareKey {
  const pair = p256KeyPair();
  return {
    id: crypto.randomBytes(32),
    rpId,
    userHandle: Buffer.from(userHandle),
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    signCount,
  };
}

const randomAlphanumeric = (length: number, alphabet: string) =>
  Array.from({ length }, () => alphabet[crypto.randomInt(alphabet.length)]).join('');

const organisation = (org: string, relation: 'issuer' | 'access' | 'admin', id: string): KetoTuple => ({
  namespace: 'organizations',
  object: org,
  relation,
  subjectId: id,
});

const dataRole = (role: string, org: string, id: string): KetoTuple => ({
  namespace: 'subdivisions',
  object: `${role}_${org}`,
  relation: 'issuer',
  subjectId: id,
});

/**
 * The six kinds of person the acceptance test of `portaal import kratos` names, with new ids, hashes, secrets and
 * keys on every call, in the organisations of the demo catalogue: a bcrypt password; an argon2id password with an
 * authenticator app and backup codes, one used; a security key beside a password; an unverified address; a blocked
 * person; a passkey without a password. `tag` goes into the addresses (`anna.bakker-<tag>@…`) for tests that share
 * a portal; `rpId` is the host the keys are for (the portal's WEBAUTHN_RP_ID).
 */
export async function kratosFixturePeople(
  options: { tag?: string; rpId?: string; totpIssuer?: string } = {},
): Promise<KratosFixturePerson[]> {
  const rpId = options.rpId ?? 'localhost';
  const address = (local: string, domain: string) => `${local}${options.tag ? `-${options.tag}` : ''}@${domain}`;
  const person = (first: string, last: string, email: string, createdAt: string) => ({
    id: randomUUID(),
    traits: { email, name: { first, last } },
    createdAt: new Date(createdAt),
  });

  const anna = person('Anna', 'Bakker', address('anna.bakker', 'voorbeeldstad.nl'), '2023-02-14T08:30:00Z');
  const annaPassword = 'Kratos-Bcrypt-Anna-Tulp-81';

  const bram = person('Bram', 'de Vries', address('bram.devries', 'dijkstad.nl'), '2023-09-01T12:00:00Z');
  const bramPassword = 'Kratos-Argon2-Bram-Dijk-27';
  const bramSecret = base32(crypto.randomBytes(20));
  const bramCodes = Array.from({ length: 12 }, () => randomAlphanumeric(8, 'abcdefghijklmnopqrstuvwxyz0123456789'));

  const carla = person('Carla', 'Jansen', address('carla.jansen', 'voorbeeldstad.nl'), '2024-01-10T09:15:00Z');
  const carlaPassword = 'Kratos-Sleutel-Carla-Gracht-63';
  const carlaKey = softwareKey(rpId, uuidBytes(carla.id), 7);

  // Kratos keeps the traits as typed and lower-cases identifiers and addresses.
  const daanEmail = address('daan.visser', 'dego.nl');
  const daan = person('Daan', 'Visser', daanEmail.replace(/^d/, 'D'), '2025-03-03T16:45:00Z');
  const daanPassword = 'Kratos-Argon2-Daan-Polder-40';

  const eva = person('Eva', 'Smit', address('eva.smit', 'dego.nl'), '2022-11-20T10:00:00Z');
  const evaPassword = 'Kratos-Bcrypt-Eva-Molen-19';

  const fleur = person('Fleur', 'Mulder', address('fleur.mulder', 'dijkstad.nl'), '2025-06-30T07:20:00Z');
  const fleurHandle = randomAlphanumeric(64, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
  const fleurKey = softwareKey(rpId, Buffer.from(fleurHandle, 'utf8'), 2);

  const usedAt = new Date('2025-05-12T07:41:09Z');
  return [
    {
      kind: 'bcrypt',
      email: anna.traits.email,
      password: annaPassword,
      person: {
        ...anna,
        password: { hashedPassword: await kratosPasswordHash(annaPassword, 'bcrypt') },
        metadataAdmin: { home_organisation: 'voorbeeldstad' },
      },
      tuples: [
        organisation('voorbeeldstad', 'issuer', anna.id),
        dataRole('sociaal-domein', 'voorbeeldstad', anna.id),
        dataRole('ruimte', 'voorbeeldstad', anna.id),
      ],
    },
    {
      kind: 'argon2id-totp-lookup',
      email: bram.traits.email,
      password: bramPassword,
      totpSecret: bramSecret,
      backupCodes: { unused: bramCodes.slice(1), used: bramCodes.slice(0, 1) },
      person: {
        ...bram,
        password: { hashedPassword: await kratosPasswordHash(bramPassword, 'argon2id') },
        totp: { secret: bramSecret, issuer: options.totpIssuer },
        lookupSecrets: bramCodes.map((code, i) => ({ code, usedAt: i === 0 ? usedAt : undefined })),
        metadataPublic: { afdeling: 'Informatievoorziening' },
      },
      tuples: [
        organisation('dijkstad', 'issuer', bram.id),
        organisation('dijkstad', 'admin', bram.id),
        dataRole('veiligheid', 'dijkstad', bram.id),
        organisation('voorbeeldstad', 'access', bram.id),
      ],
    },
    {
      kind: 'webauthn',
      email: carla.traits.email,
      password: carlaPassword,
      key: carlaKey,
      person: {
        ...carla,
        password: { hashedPassword: await kratosPasswordHash(carlaPassword, 'bcrypt') },
        webauthn: {
          keys: [
            {
              id: carlaKey.id,
              publicKey: coseKey(carlaKey.publicKey),
              aaguid: Buffer.from('5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e', 'hex'),
              signCount: carlaKey.signCount,
              displayName: 'Beveiligingssleutel',
              addedAt: new Date('2024-01-10T09:20:00Z'),
              isPasswordless: false,
              flags: { userPresent: true, userVerified: true, backupEligible: false, backupState: false },
              transport: ['usb'],
            },
          ],
        },
        metadataAdmin: { home_organisation: 'voorbeeldstad' },
      },
      tuples: [
        organisation('voorbeeldstad', 'issuer', carla.id),
        organisation('voorbeeldstad', 'admin', carla.id),
        dataRole('financien', 'voorbeeldstad', carla.id),
      ],
    },
    {
      kind: 'unverified',
      email: daanEmail,
      password: daanPassword,
      person: {
        ...daan,
        password: { hashedPassword: await kratosPasswordHash(daanPassword, 'argon2id') },
        addresses: [{ value: daanEmail, verified: false, status: 'sent' }],
      },
      tuples: [organisation('dego', 'issuer', daan.id), dataRole('analyse', 'dego', daan.id)],
    },
    {
      kind: 'blocked',
      email: eva.traits.email,
      password: evaPassword,
      person: {
        ...eva,
        state: 'inactive',
        stateChangedAt: new Date('2025-08-01T13:00:00Z'),
        updatedAt: new Date('2025-08-01T13:00:00Z'),
        password: { hashedPassword: await kratosPasswordHash(evaPassword, 'bcrypt') },
        metadataAdmin: { home_organisation: 'dego' },
      },
      tuples: [organisation('dego', 'issuer', eva.id)],
    },
    {
      kind: 'passkey',
      email: fleur.traits.email,
      key: fleurKey,
      person: {
        ...fleur,
        passkey: {
          userHandle: fleurHandle,
          keys: [
            {
              id: fleurKey.id,
              publicKey: coseKey(fleurKey.publicKey),
              signCount: fleurKey.signCount,
              displayName: 'Sleutelhanger',
              addedAt: new Date('2025-06-30T07:21:00Z'),
              isPasswordless: true,
              flags: { userPresent: true, userVerified: true, backupEligible: true, backupState: true },
              transport: ['internal', 'hybrid'],
            },
          ],
        },
      },
      tuples: [organisation('dijkstad', 'issuer', fleur.id), dataRole('sociaal-domein', 'dijkstad', fleur.id)],
    },
  ];
}

/** A new database named `name` on the cluster at `baseUrl`, filled by `fill`; answers its URL. */
export async function newDatabase(
  baseUrl: string,
  name: string,
  fill: (client: pg.Client) => Promise<void>,
): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await fill(client);
  } finally {
    await client.end();
  }
  return url.toString();
}
