import type { Kysely } from 'kysely';
import type { OidcSessionLinksTable, UsersApiDatabase } from '../db/schema.js';

type Db = Kysely<UsersApiDatabase>;

export type SessionLink = Omit<OidcSessionLinksTable, 'created_at'>;

/** How long an ended link is kept (for a late token of its grant to find it ended) before it is removed. */
const KEEP_ENDED_MS = 24 * 3600 * 1000;

/**
 * The table that ties every OpenID Connect grant to the portal session it was made from
 * (docs/architecture.md#single-sign-on-for-the-data-services): a grant ends with its session, whatever ended the
 * session, and a token of a grant without a link is refused.
 */
export function sessionLinks<DB>(database: Kysely<DB>, now: () => number = Date.now) {
  const db = database as unknown as Db;
  const iso = () => new Date(now()).toISOString();
  return {
    /** Records that `grantId` was made (or used again) from this portal session; a new session takes it over. */
    async link(grantId: string, portalSessionId: string, clientId: string, accountId: string): Promise<void> {
      const row = { portal_session_id: portalSessionId, client_id: clientId, account_id: accountId, ended_at: null };
      await db
        .insertInto('oidc_session_links')
        .values({ grant_id: grantId, ...row, sid: null, created_at: iso() })
        .onConflict((conflict) => conflict.column('grant_id').doUpdateSet(row))
        .execute();
    },

    /** The provider's session id for the client, learnt when it issues a code: the `sid` of its logout tokens. */
    async recordSid(grantId: string, sid: string): Promise<void> {
      await db.updateTable('oidc_session_links').set({ sid }).where('grant_id', '=', grantId).execute();
    },

    async find(grantId: string): Promise<SessionLink | undefined> {
      return db
        .selectFrom('oidc_session_links')
        .select(['grant_id', 'portal_session_id', 'client_id', 'account_id', 'sid', 'ended_at'])
        .where('grant_id', '=', grantId)
        .executeTakeFirst();
    },

    /** The grant of this session and client that is still open, to be given again rather than a new one. */
    async openGrantOf(portalSessionId: string, clientId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('oidc_session_links')
        .select('grant_id')
        .where('portal_session_id', '=', portalSessionId)
        .where('client_id', '=', clientId)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return row?.grant_id;
    },

    /** Links not yet ended, oldest first, at most `limit`. */
    async open(limit: number): Promise<SessionLink[]> {
      return db
        .selectFrom('oidc_session_links')
        .select(['grant_id', 'portal_session_id', 'client_id', 'account_id', 'sid', 'ended_at'])
        .where('ended_at', 'is', null)
        .orderBy('created_at')
        .limit(limit)
        .execute();
    },

    /**
     * Marks the link ended; true only for the one caller that ended it, so that of several processes exactly one
     * revokes the grant and sends the logout token.
     */
    async claimEnd(grantId: string): Promise<boolean> {
      const result = await db
        .updateTable('oidc_session_links')
        .set({ ended_at: iso() })
        .where('grant_id', '=', grantId)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async pruneEnded(): Promise<void> {
      const before = new Date(now() - KEEP_ENDED_MS).toISOString();
      await db.deleteFrom('oidc_session_links').where('ended_at', '<', before).execute();
    },
  };
}

export type SessionLinks = ReturnType<typeof sessionLinks>;
