import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { RetryLaterError } from '../api-error.js';

/**
 * Limits on the mails the Users API sends to a person on an administrator's request (an invitation, a new one for an
 * invitation never followed, an invitation to join another organisation, the notice of a second-factor reset): per
 * recipient address, so that nobody's inbox is flooded by repeated submits, and per organisation, so that one
 * organisation cannot use the portal to send mail in bulk (docs/security.md#49-no-mail-bombing). The password
 * recovery link and the identity provider's recovery and verification mails have limits of their own, which never
 * say whether a mail went.
 * Counters live in the database, so they hold across processes and restarts.
 */
export interface MailThrottle {
  /**
   * Takes one mail to `recipient` for `organisationId` from both limits before anything is written; throws a 429
   * `RetryLaterError` (with the seconds until the window ends) and takes nothing when either is used up.
   */
  take(recipient: string, organisationId: string): Promise<void>;
  /**
   * The same for a mail of an import (imports/): the recipient's limit, and the organisation's budget for imports
   * instead of its hourly one, which a file of people would use up at once.
   */
  takeForImport(recipient: string, organisationId: string): Promise<void>;
}

/** A fixed window per key: at most `limit` mails in `windowMs` from the first. */
interface Limit {
  limit: number;
  windowMs: number;
}

export const MAIL_LIMITS = {
  /** Three mails to one address in 15 minutes: a mail, and two more for a person who could not find it. */
  recipient: { limit: 3, windowMs: 15 * 60_000 },
  /** 200 mails an hour from one organisation: more than a person entering people one by one can send. */
  organisation: { limit: 200, windowMs: 60 * 60_000 },
  /** 5,000 mails a day from one organisation's imports: one full file (imports/import-file.ts) a day. */
  imports: { limit: 5_000, windowMs: 24 * 60 * 60_000 },
} satisfies Record<string, Limit>;

// The table is the Users API's own (migrations/0006_mail_throttle.ts); addresses are kept only as hashes.
interface MailThrottleDatabase {
  mail_throttle: { key: string; sent: number; window_started_at: string };
}

const recipientKey = (email: string) =>
  `recipient:${crypto.createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

const TOO_MANY_TO_RECIPIENT = () => ({
  id: 'mail_throttled_recipient',
  reason: 'Mails were sent to this address just now.',
  message: 'Er zijn net al berichten naar dit e-mailadres gestuurd. Probeer het over een paar minuten opnieuw.',
});
const TOO_MANY_FROM_ORGANISATION = () => ({
  id: 'mail_throttled_organisation',
  reason: 'Your organisation sent many mails just now.',
  message: 'Vanuit je organisatie zijn net heel veel berichten gestuurd. Probeer het later opnieuw.',
});

export function createMailThrottle<DB>(db: Kysely<DB>, now: () => Date = () => new Date()): MailThrottle {
  const typed = db as unknown as Kysely<MailThrottleDatabase>;

  /**
   * Counts one mail on each key, in one transaction: every counter moves, or (when one is used up) none. Answers the
   * key that is used up and the seconds until its window ends, or undefined when the mail may go.
   */
  async function count(keys: { key: string; limit: Limit }[]) {
    const at = now();
    try {
      await typed.transaction().execute(async (trx) => {
        for (const { key, limit } of keys) {
          const windowStart = new Date(at.getTime() - limit.windowMs).toISOString();
          // Insert or bump, atomically on SQLite and PostgreSQL; a window that ended starts over at 1.
          const row = await trx
            .insertInto('mail_throttle')
            .values({ key, sent: 1, window_started_at: at.toISOString() })
            .onConflict((oc) =>
              oc.column('key').doUpdateSet((eb) => {
                const ended = eb('mail_throttle.window_started_at', '<=', windowStart);
                return {
                  sent: eb
                    .case()
                    .when(ended)
                    .then(1)
                    .else(eb('mail_throttle.sent', '+', 1))
                    .end(),
                  window_started_at: eb
                    .case()
                    .when(ended)
                    .then(at.toISOString())
                    .else(eb.ref('mail_throttle.window_started_at'))
                    .end(),
                };
              }),
            )
            .returning(['sent', 'window_started_at'])
            .executeTakeFirstOrThrow();
          if (row.sent > limit.limit) {
            const endsAt = Date.parse(row.window_started_at) + limit.windowMs;
            throw new UsedUp(key, Math.max(1, Math.ceil((endsAt - at.getTime()) / 1000)));
          }
        }
      });
      return undefined;
    } catch (error) {
      if (error instanceof UsedUp) return error;
      throw error;
    }
  }

  async function takeFrom(recipient: string, organisation: { key: string; limit: Limit }) {
    const usedUp = await count([{ key: recipientKey(recipient), limit: MAIL_LIMITS.recipient }, organisation]);
    if (!usedUp) return;
    const text = usedUp.key.startsWith('recipient:') ? TOO_MANY_TO_RECIPIENT() : TOO_MANY_FROM_ORGANISATION();
    throw new RetryLaterError(429, text.id, text.reason, text.message, usedUp.retryAfterSeconds);
  }

  return {
    take: (recipient, organisationId) =>
      takeFrom(recipient, { key: `organisation:${organisationId}`, limit: MAIL_LIMITS.organisation }),
    takeForImport: (recipient, organisationId) =>
      takeFrom(recipient, { key: `imports:${organisationId}`, limit: MAIL_LIMITS.imports }),
  };
}

/** Rolls the counting transaction back: a refused mail takes nothing from any limit. */
class UsedUp extends Error {
  constructor(
    readonly key: string,
    readonly retryAfterSeconds: number,
  ) {
    super('mail limit used up');
  }
}
