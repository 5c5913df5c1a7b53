import { type Kysely, PostgresAdapter } from 'kysely';
import { fixedStatement, runFixed } from '@portaal/idp';
import { amongIds } from '../db/among-ids.js';
import type { UsersApiDatabase } from '../db/schema.js';

/**
 * When each person last signed in, for the overview's 'Laatst ingelogd' and the CSV export: written at each passed
 * sign-in step that the audit log records (sign-in-audit.ts), on the embedded provider and through Kratos' login
 * web_hook alike, so never on an ordinary request. A row is kept per identity, not per organisation: a sign-in is to
 * the portal.
 */
export interface LastSignIns {
  record(identityId: string, at: Date): Promise<void>;
  /** The last sign-in of each of these people that has one, by identity id. */
  of(identityIds: readonly string[]): Promise<Map<string, string>>;
  forget(identityId: string): Promise<void>;
}

// Written at every sign-in: a fixed statement (docs/architecture.md#fixed-statements-on-the-hot-paths).
const RECORD = fixedStatement(
  'portaal_record_last_sign_in',
  `insert into last_sign_ins (identity_id, signed_in_at) values (?, ?)
   on conflict (identity_id) do update set signed_in_at = excluded.signed_in_at`,
);

export function createLastSignIns<DB>(db: Kysely<DB>): LastSignIns {
  const typed = db as unknown as Kysely<UsersApiDatabase>;
  const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
  return {
    async record(identityId, at) {
      await runFixed(db, RECORD, [identityId, at.toISOString()]);
    },
    async of(identityIds) {
      const found = new Map<string, string>();
      if (identityIds.length === 0) return found;
      const rows = await typed
        .selectFrom('last_sign_ins')
        .selectAll()
        .where(amongIds(dialect, 'identity_id', [...identityIds]))
        .execute();
      for (const row of rows) found.set(row.identity_id, row.signed_in_at);
      return found;
    },
    async forget(identityId) {
      await typed.deleteFrom('last_sign_ins').where('identity_id', '=', identityId).execute();
    },
  };
}
