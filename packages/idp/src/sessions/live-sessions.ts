import type { IdpServices } from '../services.js';
import { isSessionActive } from './session-json.js';
import { revokeSession, toSessionRecord } from './session-repository.js';

/** How many ids one statement asks about; callers pass the sessions their grants came from, a few hundred at most. */
const BATCH = 500;

/**
 * Which of these sessions can be used now, by the rule whoami applies (`isSessionActive`: not revoked, not expired,
 * not idle too long, identity active). A session that no longer exists (its identity was deleted) is not live. The
 * OpenID Connect provider ends the grants of every other one (docs/architecture.md#single-sign-on-for-the-data-
 * services).
 */
export async function liveSessionIds(services: IdpServices, ids: readonly string[]): Promise<Set<string>> {
  const { db, clock, config } = services.ctx;
  const live = new Set<string>();
  const now = clock.now();
  for (let start = 0; start < ids.length; start += BATCH) {
    const rows = await db.kysely
      .selectFrom('sessions as s')
      .innerJoin('identities as i', 'i.id', 's.identity_id')
      .selectAll('s')
      .select('i.state as identity_state')
      .where('s.id', 'in', ids.slice(start, start + BATCH))
      .execute();
    for (const row of rows) {
      const session = toSessionRecord(row);
      const identity = { state: row.identity_state };
      if (isSessionActive(session, identity, now, config.lifespans.sessionIdleMs)) live.add(session.id);
    }
  }
  return live;
}

/** Ends one session, as `DELETE /admin/sessions/{id}` does. */
export async function endSession(services: IdpServices, id: string): Promise<void> {
  await revokeSession(services.ctx.db.kysely, id);
}
