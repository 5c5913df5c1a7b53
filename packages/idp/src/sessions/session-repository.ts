import crypto from 'node:crypto';
import type { Clock } from '../clock.js';
import type { IdpContext } from '../context.js';
import type { DbExecutor } from '../identities/identity-repository.js';
import type { SessionsTable } from '../db/schema.js';
import { randomToken, sha256 } from './tokens.js';
import { allColumns, fixedInsert, runFixed } from '../db/fixed-statement.js';
import type { AuthenticationMethod } from './aal.js';

export interface SessionRecord {
  id: string;
  identityId: string;
  active: boolean;
  methods: AuthenticationMethod[];
  authenticatedAt: string;
  issuedAt: string;
  expiresAt: string;
  lastSeenAt: string;
  ipAddress: string;
  userAgent: string;
}

/** The columns of a session row that make its record: never a token hash nor the creation time. */
type SessionColumns = Omit<
  SessionsTable,
  'token_hash' | 'logout_token_hash' | 'created_at' | 'previous_token_hash' | 'previous_token_expires_at'
>;

/**
 * How long the token a renewal replaced keeps working: long enough for requests already under way with it (another
 * tab, a parallel call) to finish, short enough that a captured token is soon worthless
 * (docs/security.md#21-a-new-token-at-every-sign-in).
 */
export const RENEWED_TOKEN_GRACE_MS = 30_000;

/** A session row as read; the token hashes and the creation time never leave the database. */
export const toSessionRecord = (row: SessionColumns): SessionRecord => ({
  id: row.id,
  identityId: row.identity_id,
  active: row.active === 1,
  methods: JSON.parse(row.authentication_methods) as AuthenticationMethod[],
  authenticatedAt: row.authenticated_at,
  issuedAt: row.issued_at,
  expiresAt: row.expires_at,
  lastSeenAt: row.last_seen_at,
  ipAddress: row.ip_address,
  userAgent: row.user_agent,
});

// Every sign-in writes one: a fixed statement (docs/architecture.md#fixed-statements-on-the-hot-paths).
const INSERT_SESSION = fixedInsert<SessionsTable>(
  'portaal_insert_session',
  'sessions',
  allColumns<SessionsTable>()([
    'id',
    'token_hash',
    'logout_token_hash',
    'identity_id',
    'active',
    'authentication_methods',
    'authenticated_at',
    'issued_at',
    'expires_at',
    'last_seen_at',
    'ip_address',
    'user_agent',
    'created_at',
    'previous_token_hash',
    'previous_token_expires_at',
  ]),
);

/** Issues a new session; the token is returned once and only its hash is stored. */
export async function insertSession(
  db: DbExecutor,
  clock: Clock,
  input: {
    identityId: string;
    methods: AuthenticationMethod[];
    lifespanMs: number;
    ipAddress: string;
    userAgent: string;
  },
): Promise<{ session: SessionRecord; token: string }> {
  const now = clock.now();
  const token = randomToken('ory_st_');
  const row: SessionsTable = {
    id: crypto.randomUUID(),
    token_hash: sha256(token),
    logout_token_hash: sha256(randomToken('ory_lo_')),
    identity_id: input.identityId,
    active: 1,
    authentication_methods: JSON.stringify(input.methods),
    authenticated_at: now.toISOString(),
    issued_at: now.toISOString(),
    expires_at: new Date(now.getTime() + input.lifespanMs).toISOString(),
    last_seen_at: now.toISOString(),
    ip_address: input.ipAddress.slice(0, 64),
    user_agent: input.userAgent.slice(0, 512),
    created_at: now.toISOString(),
    previous_token_hash: null,
    previous_token_expires_at: null,
  };
  await runFixed(db, INSERT_SESSION.statement, INSERT_SESSION.values(row));
  return { session: toSessionRecord(row), token };
}

/**
 * Adds authentication methods to a session (second factor, re-authentication) and rotates its token, so a token
 * captured before the step-up never carries the higher assurance (session fixation). No earlier token keeps working,
 * not even one still within the grace window of a renewal.
 */
export async function upgradeSession(
  db: DbExecutor,
  clock: Clock,
  session: SessionRecord,
  methods: AuthenticationMethod[],
  options: { reauthenticated: boolean; lifespanMs: number },
): Promise<{ session: SessionRecord; token: string }> {
  const now = clock.now();
  const token = randomToken('ory_st_');
  const merged = [...session.methods, ...methods];
  const changes = {
    token_hash: sha256(token),
    previous_token_hash: null,
    previous_token_expires_at: null,
    authentication_methods: JSON.stringify(merged),
    last_seen_at: now.toISOString(),
    ...(options.reauthenticated
      ? {
          authenticated_at: now.toISOString(),
          issued_at: now.toISOString(),
          expires_at: new Date(now.getTime() + options.lifespanMs).toISOString(),
        }
      : {}),
  };
  await db.updateTable('sessions').set(changes).where('id', '=', session.id).execute();
  return {
    token,
    session: {
      ...session,
      methods: merged,
      lastSeenAt: changes.last_seen_at,
      ...(options.reauthenticated
        ? { authenticatedAt: changes.authenticated_at!, issuedAt: changes.issued_at!, expiresAt: changes.expires_at! }
        : {}),
    },
  };
}

/** A second factor just passed raises the session to aal2, with a new token (as `upgradeSession`). */
export function raiseToAal2(
  idp: Pick<IdpContext, 'db' | 'clock' | 'config'>,
  session: SessionRecord,
  method: 'totp' | 'lookup_secret' | 'webauthn',
): Promise<{ session: SessionRecord; token: string }> {
  const { db, clock, config } = idp;
  const completed = { method, aal: 'aal2', completed_at: clock.now().toISOString() } as const;
  return upgradeSession(db.kysely, clock, session, [completed], {
    reauthenticated: false,
    lifespanMs: config.lifespans.sessionMs,
  });
}

/**
 * Gives the session a new token without changing its assurance (a changed password, ASVS 7.2.4). The token presented
 * until now keeps working for `RENEWED_TOKEN_GRACE_MS`, then is refused; one that an earlier renewal replaced ends
 * now. Returns the new token once; only its hash is stored.
 */
export async function renewSessionToken(db: DbExecutor, clock: Clock, sessionId: string): Promise<string> {
  const token = randomToken('ory_st_');
  const graceUntil = new Date(clock.now().getTime() + RENEWED_TOKEN_GRACE_MS).toISOString();
  await db
    .updateTable('sessions')
    // Both engines read the right-hand sides from the row as it was, so the old hash moves aside in one statement.
    .set((eb) => ({
      previous_token_hash: eb.ref('token_hash'),
      previous_token_expires_at: graceUntil,
      token_hash: sha256(token),
    }))
    .where('id', '=', sessionId)
    .execute();
  return token;
}

/** Whether a session was found by its current token, or by the one a renewal replaced while that still works. */
export const presentedTokenCounts = (
  row: Pick<SessionsTable, 'token_hash' | 'previous_token_expires_at'>,
  tokenHash: string,
  now: Date,
): boolean =>
  row.token_hash === tokenHash ||
  (row.previous_token_expires_at !== null && new Date(row.previous_token_expires_at).getTime() > now.getTime());

export async function findSessionByToken(db: DbExecutor, token: string): Promise<SessionRecord | undefined> {
  const row = await db.selectFrom('sessions').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
  return row ? toSessionRecord(row) : undefined;
}

export async function findSession(db: DbExecutor, id: string): Promise<SessionRecord | undefined> {
  const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toSessionRecord(row) : undefined;
}

export async function listSessionsOfIdentity(db: DbExecutor, identityId: string): Promise<SessionRecord[]> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('identity_id', '=', identityId)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(toSessionRecord);
}

export async function revokeSession(db: DbExecutor, id: string): Promise<void> {
  await db.updateTable('sessions').set({ active: 0 }).where('id', '=', id).execute();
}

/** Revokes every session of the identity, except `keepId` when given; returns how many were active. */
export async function revokeSessionsOfIdentity(db: DbExecutor, identityId: string, keepId?: string): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ active: 0 })
    .where('identity_id', '=', identityId)
    .where('active', '=', 1);
  if (keepId) query = query.where('id', '!=', keepId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function touchSession(db: DbExecutor, id: string, at: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at.toISOString() }).where('id', '=', id).execute();
}
