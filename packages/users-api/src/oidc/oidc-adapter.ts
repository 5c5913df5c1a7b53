import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { UsersApiDatabase } from '../db/schema.js';

type Db = Kysely<UsersApiDatabase>;

/** Expired rows are removed at most this often per process, by whichever write comes first. */
const PRUNE_EVERY_MS = 60_000;

const isoIn = (now: number, seconds: number | undefined) =>
  seconds === undefined ? null : new Date(now + seconds * 1000).toISOString();

/**
 * node-oidc-provider's storage adapter over the product's database (table `oidc_payloads`, on SQLite and
 * PostgreSQL): every process on the database sees the same sessions, interactions, grants, codes and tokens
 * (docs/architecture.md#single-sign-on-for-the-data-services). Clients are not stored here: they come from the
 * catalogue (oidc-clients.ts).
 */
export function oidcStateAdapter<DB>(database: Kysely<DB>, now: () => number = Date.now) {
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
      .select(['payload', 'expires_at', 'consumed_at'])
      .where('model', '=', model)
      .where(column, '=', value)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.expires_at !== null && row.expires_at <= new Date(now()).toISOString()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at ? { ...payload, consumed: Math.floor(Date.parse(row.consumed_at) / 1000) } : payload;
  }

  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const row = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        expires_at: isoIn(now(), expiresIn),
        consumed_at: null,
      };
      await db
        .insertInto('oidc_payloads')
        .values({ model, id, ...row })
        .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(row))
        .execute();
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
        .where('id', '=', id)
        .execute();
    },
    async destroy(id) {
      await db.deleteFrom('oidc_payloads').where('model', '=', model).where('id', '=', id).execute();
    },
    async revokeByGrantId(grantId) {
      await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
    },
  });
}
