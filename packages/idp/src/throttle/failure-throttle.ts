import crypto from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { IdpContext } from '../context.js';
import type { FailureThrottle } from '../services.js';
import { fixedStatement, runFixed } from '../db/fixed-statement.js';

// Every sign-in asks whether its identifier or its client address is locked, and clears its identifier's counter:
// fixed statements (docs/architecture.md#fixed-statements-on-the-hot-paths). One key is asked as both.
const EITHER_LOCKED = fixedStatement(
  'portaal_either_locked',
  'select key from throttles where key in (?, ?) and locked_until > ? limit 1',
);
const RESET = fixedStatement('portaal_reset_throttle', 'delete from throttles where key = ?');

/**
 * Failure counters in the database, so locks survive restarts and hold across processes. Each failure is one
 * upsert, atomic on SQLite and PostgreSQL, so concurrent failures all count.
 */
export function createFailureThrottle(ctx: IdpContext): FailureThrottle {
  const { db, clock } = ctx;
  const lockedUntil = async (key: string) => {
    const row = await db.kysely
      .selectFrom('throttles')
      .select('locked_until')
      .where('key', '=', key)
      .executeTakeFirst();
    const until = row?.locked_until ?? undefined;
    return until !== undefined && until > clock.now().toISOString() ? until : undefined;
  };
  return {
    // A password sign-in asks about its identifier and its client address at once.
    isLocked: async (first, second = first) => {
      const rows = await runFixed(db.kysely, EITHER_LOCKED, [first, second, clock.now().toISOString()]);
      return rows.length > 0;
    },
    lockedUntil,
    async recordFailure(key, limit, windowMs, lockMs) {
      return db.kysely.transaction().execute(async (trx) => {
        const now = clock.now();
        const nowIso = now.toISOString();
        const windowStart = new Date(now.getTime() - windowMs).toISOString();
        // Insert or bump; a window that ended (or a lock that expired) starts over at 1.
        const row = await trx
          .insertInto('throttles')
          .values({ key, failures: 1, window_started_at: nowIso, locked_until: null, updated_at: nowIso })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet((eb) => ({
              failures: eb
                .case()
                .when(
                  eb.or([
                    eb('throttles.window_started_at', '<', windowStart),
                    eb('throttles.locked_until', '<=', nowIso),
                  ]),
                )
                .then(1)
                .else(eb('throttles.failures', '+', 1))
                .end(),
              window_started_at: eb
                .case()
                .when(
                  eb.or([
                    eb('throttles.window_started_at', '<', windowStart),
                    eb('throttles.locked_until', '<=', nowIso),
                  ]),
                )
                .then(nowIso)
                .else(eb.ref('throttles.window_started_at'))
                .end(),
              locked_until: eb
                .case()
                .when('throttles.locked_until', '<=', nowIso)
                .then(null)
                .else(eb.ref('throttles.locked_until'))
                .end(),
              updated_at: nowIso,
            })),
          )
          .returning(['failures', 'locked_until'])
          .executeTakeFirstOrThrow();
        const alreadyLocked = row.locked_until !== null && row.locked_until > nowIso;
        if (!alreadyLocked && row.failures >= limit) {
          await trx
            .updateTable('throttles')
            .set({ locked_until: new Date(now.getTime() + lockMs).toISOString() })
            .where('key', '=', key)
            .execute();
          return { locked: true, failures: row.failures };
        }
        return { locked: alreadyLocked, failures: row.failures };
      });
    },
    async reset(key) {
      await runFixed(db.kysely, RESET, [key]);
    },
  };
}

const hashed = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** Per-identifier key; the identifier is hashed so addresses are not kept in clear in this table. */
export const identifierKey = (purpose: string, identifier: string): string =>
  `${purpose}:id:${hashed(identifier.trim().toLowerCase())}`;

/**
 * Per-client key; IPv6 clients are bucketed by /64, IPv4-mapped addresses count as IPv4, and a port that a proxy
 * wrote into X-Forwarded-For is left out (the client's port changes with every connection).
 */
export function clientAddressKey(purpose: string, ip: string): string {
  let address = withoutPort(ip.trim().toLowerCase());
  if (address.startsWith('::ffff:') && address.includes('.')) address = address.slice(7);
  if (isIPv6(address)) address = ipv6Prefix64(address);
  return `${purpose}:ip:${address}`;
}

/** `192.0.2.1:5678` → `192.0.2.1`, `[2001:db8::1]:5678` or `[2001:db8::1]` → `2001:db8::1`; others unchanged. */
function withoutPort(address: string): string {
  const ipv4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(address);
  if (ipv4) return ipv4[1]!;
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(address);
  return bracketed ? bracketed[1]! : address;
}

function ipv6Prefix64(address: string): string {
  const [head = '', tail = ''] = address.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array(Math.max(0, missing)).fill('0'), ...tailParts];
  return `${parts
    .slice(0, 4)
    .map((p) => p.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
