import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { UsersApiDatabase } from '../db/schema.js';

type Db = Kysely<UsersApiDatabase>;

/** Expired rows are removed at most this often per process, by whichever write comes first. */
const PRUNE_EVERY_MS = 60_000;

const isoIn = (now: number, seconds: number | undefined) =>
  seconds === undefined ? null : new Date(now + seconds * 1000).toISOString();

/**
 * Rows are keyed by the SHA-256 of the id, and the id itself (`jti`) is left out of the stored payload: an access
 * token, refresh token or code is its id, so a copy of the table holds nothing a service would accept
 * (docs/security.md#54-single-sign-on-ends-with-the-portal-session).
 */
const keyOf = (id: string) => createHash('sha256').update(id).digest('base64url');

export interface OidcStateHooks {
  /** A code was issued under a grant: its `sid` is the provider's session id for the client (session-links.ts). */
  codeIssued?(grantId: string, sid: string): Promise<void>;
}

/**
 * node-oidc-provider's storage adapter over the product's database (table `oidc_payloads`, on SQLite and
 * PostgreSQL): every process on the database sees the same sessions, interactions, grants, codes and tokens
 * (docs/architecture.md#single-sign-on-for-the-data-services). Clients are not stored here: they come from the
 * catalogue (oidc-clients.ts).
 */
export function oidcStateAdapter<DB>(database: Kysely<DB>, now: () => number = Date.now, hooks: OidcStateHooks = {}) {
  const db = database as unknown as Db;
  let prunedAt = 0;

  async function prune() {
    const at = now();
    if (at - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = at;
    await db.deleteFrom('oidc_payloads').where('expires_at', '<', new Date(at).toISOString()).execute();
  }

  async function first(model: string, column: 'id' | 'uid' | 'user_code', value: string) {
    const row = await db
      .selectFrom('oidc_payloads')
      .select(['id', 'payload', 'expires_at', 'consumed_at'])
      .where('model', '=', model)
      .where(column, '=', column === 'id' ? keyOf(value) : value)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.expires_at !== null && row.expires_at <= new Date(now()).toISOString()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    // Found by id, the id is the one asked for; found otherwise, the payload kept it (see upsert).
    if (column === 'id') payload.jti = value;
    return row.consumed_at ? { ...payload, consumed: Math.floor(Date.parse(row.consumed_at) / 1000) } : payload;
  }

  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      // A model found by uid (the provider's session) keeps its id in the payload: its id is the session cookie's
      // value, which the provider needs back; it grants nothing without the portal's session (oidc-routes.ts).
      const { jti: _id, ...rest } = payload;
      const stored = payload.uid === undefined ? rest : payload;
      const row = {
        payload: JSON.stringify(stored),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        expires_at: isoIn(now(), expiresIn),
        consumed_at: null,
      };
      await db
        .insertInto('oidc_payloads')
        .values({ model, id: keyOf(id), ...row })
        .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(row))
        .execute();
      if (model === 'AuthorizationCode' && payload.grantId && payload.sid) {
        await hooks.codeIssued?.(payload.grantId, payload.sid);
      }
      await prune();
    },
    find: (id) => first(model, 'id', id),
    findByUid: (uid) => first(model, 'uid', uid),
    findByUserCode: (userCode) => first(model, 'user_code', userCode),
    async consume(id) {
      await db
        .updateTable('oidc_payloads')
        .set({ consumed_at: new Date(now()).toISOString() })
        .where('model', '=', model)
        .where('id', '=', keyOf(id))
        .execute();
    },
    async destroy(id) {
      await db.deleteFrom('oidc_payloads').where('model', '=', model).where('id', '=', keyOf(id)).execute();
    },
    async revokeByGrantId(grantId) {
      await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
    },
  });
}
