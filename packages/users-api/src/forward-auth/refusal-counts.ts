import type { AuditEntry } from '../audit/audit-log.js';

const MINUTE = 60_000;

/** A refusal's audit entry: who, from where, at which service, and why. */
export type RefusalEntry = AuditEntry & { details: { service: string; reason: string } };

/**
 * Refused forward-auth checks, counted per session, service, reason and minute: the audit log gets one entry for each
 * such minute, with `count` and `minute` in its details, rather than a row per refused request
 * (docs/security.md#51-forward-authentication). A refused check is a proxied request, so a page with fifty images
 * or a script that retries would otherwise write a row each, as fast as anyone with a session can send them.
 * A minute's counts are written when the minute is over (by a timer, or by the next refusal), and all of them on
 * shutdown (`flush`). Bounded: past `limit` open counts, every count is written at once. It decides only what is
 * logged, never who passes.
 */
export interface RefusalCounts {
  /** Counts a refusal; `entry` is the audit entry of the first refusal of its session, service, reason and minute. */
  count(sessionId: string, entry: RefusalEntry): void;
  /** Writes every open count, the current minute's too, and waits for all writes (on shutdown). */
  flush(): Promise<void>;
}

interface Count {
  minute: number;
  entry: RefusalEntry;
  count: number;
}

/** `write` is the audit log's, and must not reject: a failed write is logged by it and the count is lost. */
export function createRefusalCounts(
  write: (entry: AuditEntry) => Promise<void>,
  options: { now?: () => number; limit?: number } = {},
): RefusalCounts {
  const now = options.now ?? Date.now;
  const limit = options.limit ?? 10_000;
  const open = new Map<string, Count>();
  const writing = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  /** The minute of the oldest open count: all others are of that minute or later. */
  let earliest = Number.POSITIVE_INFINITY;

  function writeOut(keys: string[]): void {
    for (const key of keys) {
      const { minute, entry, count } = open.get(key)!;
      open.delete(key);
      const details = { ...entry.details, count, minute: new Date(minute).toISOString() };
      const written = write({ ...entry, details }).catch(() => {});
      writing.add(written);
      void written.finally(() => writing.delete(written));
    }
  }

  /** Writes the counts of the minutes before `minute`: those are over. */
  function writeEnded(minute: number): void {
    if (earliest >= minute) return;
    writeOut([...open].filter(([, counted]) => counted.minute < minute).map(([key]) => key));
    earliest = open.size > 0 ? minute : Number.POSITIVE_INFINITY;
  }

  function schedule(): void {
    if (timer || open.size === 0) return;
    // Just after the minute turns; unref'd, so that it never keeps a process alive.
    timer = setTimeout(
      () => {
        timer = undefined;
        writeEnded(minuteOf(now()));
        schedule();
      },
      MINUTE - (now() % MINUTE) + 100,
    );
    timer.unref();
  }

  return {
    count(sessionId, entry) {
      const minute = minuteOf(now());
      writeEnded(minute);
      const key = [minute, sessionId, entry.details.service, entry.details.reason].join('\n');
      const counted = open.get(key);
      if (counted) counted.count += 1;
      else open.set(key, { minute, entry, count: 1 });
      earliest = Math.min(earliest, minute);
      if (open.size > limit) {
        writeOut([...open.keys()]);
        earliest = Number.POSITIVE_INFINITY;
      }
      schedule();
    },
    async flush() {
      clearTimeout(timer);
      timer = undefined;
      writeOut([...open.keys()]);
      earliest = Number.POSITIVE_INFINITY;
      await Promise.all(writing);
    },
  };
}

const minuteOf = (time: number) => time - (time % MINUTE);
