import type { Db, DatabaseDialect } from '../db/database.js';
import type { FixedStatement } from '../db/fixed-statement.js';
import type { IdentitiesTable, RecoveryAddressesTable, SessionsTable, VerifiableAddressesTable } from '../db/schema.js';
import {
  toIdentityRecord,
  toRecoveryAddress,
  toVerifiableAddress,
  type IdentityRecord,
} from '../identities/identity-repository.js';
import { presentedTokenCounts, toSessionRecord, type SessionRecord } from './session-repository.js';
import { sha256 } from './tokens.js';
import { availableAal, SECOND_FACTOR_TYPES } from './aal.js';

export interface SessionWithIdentity {
  session: SessionRecord;
  identity: IdentityRecord;
  /**
   * Whether the identity has an authenticator app, backup codes or a security key, so that its highest available
   * level is aal2: `availableAal` in aal.ts over the credentials read on every request, never cached
   * (docs/kratos-compatibility.md#assurance-levels).
   */
  secondFactorAvailable: boolean;
  /** When the presented token stops working, if it is one a renewal replaced (its grace window's end). */
  presentedTokenEndsAt?: string;
}

// The configs of the credential types that may be a second factor, one column per type (an identity has at most one
// credential of each type), so that `availableAal` decides on them in TypeScript: the same rule as every other aal2
// gate, and no dialect's JSON functions (docs/kratos-compatibility.md#assurance-levels).
type SecondFactorType = (typeof SECOND_FACTOR_TYPES)[number];
type SecondFactorColumn = `second_factor_${SecondFactorType}`;
const secondFactorColumn = (type: SecondFactorType): SecondFactorColumn => `second_factor_${type}`;
const secondFactorSelects = SECOND_FACTOR_TYPES.map(
  (type) => `(select c.config from identity_credentials c where c.identity_id = s.identity_id and c.type = '${type}')
    as ${secondFactorColumn(type)}`,
).join(',\n  ');

const placeholder = (dialect: DatabaseDialect, position: number) => (dialect === 'postgres' ? `$${position}` : '?');

// One statement for the whole answer of whoami: the session, its identity, both kinds of address (an identity has
// one of each, so the joins rarely repeat a row) and the credentials that may be a second factor. Fixed text per
// dialect, so no query builder runs per request and each engine compiles it once (db/fixed-statement.ts). The token
// is looked for among the current tokens and those a renewal replaced, so its hash is passed twice.
const lookupSql = (dialect: DatabaseDialect) => `
select s.id, s.identity_id, s.active, s.authentication_methods, s.authenticated_at, s.issued_at, s.expires_at,
  s.last_seen_at, s.ip_address, s.user_agent, s.token_hash, s.previous_token_expires_at,
  i.schema_id, i.state, i.state_changed_at, i.traits, i.metadata_public, i.metadata_admin, i.external_id,
  i.created_at as i_created_at, i.updated_at as i_updated_at,
  v.id as v_id, v.value as v_value, v.via as v_via, v.verified as v_verified, v.status as v_status,
  v.verified_at as v_verified_at, v.created_at as v_created_at, v.updated_at as v_updated_at,
  r.id as r_id, r.value as r_value, r.via as r_via, r.created_at as r_created_at, r.updated_at as r_updated_at,
  ${secondFactorSelects}
from sessions s
join identities i on i.id = s.identity_id
left join identity_verifiable_addresses v on v.identity_id = s.identity_id
left join identity_recovery_addresses r on r.identity_id = s.identity_id
where s.token_hash = ${placeholder(dialect, 1)} or s.previous_token_hash = ${placeholder(dialect, 2)}
order by v.created_at, v.id, r.created_at, r.id`;

const LOOKUP: FixedStatement = {
  name: 'portaal_session_lookup',
  sql: { sqlite: lookupSql('sqlite'), postgres: lookupSql('postgres') },
};

type Prefixed<T, P extends string> = { [K in keyof T as `${P}${K & string}`]: T[K] };
type Address<T> = Omit<T, 'identity_id' | 'id'>;
// The address columns are null when the identity has no such address; their `id` says which.
type LookupRow = Omit<SessionsTable, 'logout_token_hash' | 'created_at' | 'previous_token_hash'> &
  Omit<IdentitiesTable, 'id' | 'created_at' | 'updated_at'> & { i_created_at: string; i_updated_at: string } & {
    v_id: string | null;
    r_id: string | null;
  } & Prefixed<Address<VerifiableAddressesTable>, 'v_'> &
  Prefixed<Address<RecoveryAddressesTable>, 'r_'> &
  Record<SecondFactorColumn, string | null>;

/**
 * The session presented with `token` and its identity with addresses, in one statement; undefined if unknown. The
 * token a renewal replaced finds its session until its grace window ends at `now` (session-repository.ts).
 */
export async function findSessionWithIdentity(
  db: Db,
  token: string,
  now: Date,
): Promise<SessionWithIdentity | undefined> {
  const hash = sha256(token);
  const rows = await db.run<LookupRow>(LOOKUP, [hash, hash]);
  const first = rows[0];
  if (!first || !presentedTokenCounts(first, hash, now)) return undefined;
  const identity = toIdentityRecord({
    ...first,
    id: first.identity_id,
    created_at: first.i_created_at,
    updated_at: first.i_updated_at,
  });
  // Each address comes once per address of the other kind: keep the first, in the statement's order.
  const verifiable = new Map<string, LookupRow>();
  const recovery = new Map<string, LookupRow>();
  for (const row of rows) {
    if (row.v_id !== null && !verifiable.has(row.v_id)) verifiable.set(row.v_id, row);
    if (row.r_id !== null && !recovery.has(row.r_id)) recovery.set(row.r_id, row);
  }
  for (const [id, row] of verifiable) {
    identity.verifiableAddresses.push(
      toVerifiableAddress({
        id,
        value: row.v_value,
        via: row.v_via,
        verified: row.v_verified,
        status: row.v_status,
        verified_at: row.v_verified_at,
        created_at: row.v_created_at,
        updated_at: row.v_updated_at,
      }),
    );
  }
  for (const [id, row] of recovery) {
    identity.recoveryAddresses.push(
      toRecoveryAddress({
        id,
        value: row.r_value,
        via: row.r_via,
        created_at: row.r_created_at,
        updated_at: row.r_updated_at,
      }),
    );
  }
  const candidates = SECOND_FACTOR_TYPES.flatMap((type) => {
    const config = first[secondFactorColumn(type)];
    return config === null ? [] : [{ type, config: JSON.parse(config) as Record<string, unknown> }];
  });
  const found = {
    session: toSessionRecord(first),
    identity,
    secondFactorAvailable: availableAal(candidates) === 'aal2',
  };
  return first.token_hash === hash ? found : { ...found, presentedTokenEndsAt: first.previous_token_expires_at! };
}
