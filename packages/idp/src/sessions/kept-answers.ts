import type { IncomingHttpHeaders } from 'node:http';
import { touchIntervalMs } from './authenticate.js';

interface Kept<Answer> {
  mark: string;
  until: number;
  answer: Answer;
}

/**
 * Answers about a session kept while the check mark (`Db.changeMark`) stays the same: every write that can change a
 * check raises it when it commits, by any process, so a logout, block, 2FA reset, revocation or withdrawn data role
 * anywhere counts at the very next request, as without keeping. The mark must be read before the reads an answer is
 * made of, so that a change made while they run makes the answer miss the next time. What only the clock changes
 * (the session's expiry, idle timeout and once-a-minute idle write, a replaced token's grace window) is `until`. At
 * most `limit` answers are kept; the oldest goes first.
 */
export class KeptAnswers<Answer> {
  readonly #kept = new Map<string, Kept<Answer>>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(key: string, mark: string, now: number): Answer | undefined {
    const hit = this.#kept.get(key);
    if (!hit) return undefined;
    if (hit.mark === mark && now < hit.until) return hit.answer;
    this.#kept.delete(key);
    return undefined;
  }

  /** What is kept for `key` whatever its mark, for an answer that can be brought up to date from it. */
  stale(key: string): Readonly<Kept<Answer>> | undefined {
    return this.#kept.get(key);
  }

  keep(key: string, mark: string, until: number, answer: Answer): void {
    this.#kept.delete(key);
    if (this.#kept.size >= this.#limit) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, { mark, until, answer });
  }
}

/** The credentials a request presents, in every way a session may be presented: what kept answers are kept by. */
export const presentedCredentials = (headers: IncomingHttpHeaders): string =>
  `${headers['x-session-token'] ?? ''}\n${headers.authorization ?? ''}\n${headers.cookie ?? ''}`;

/**
 * Until when an answer about a live session stays true while the check mark stays: its expiry, the moment the idle
 * clock is due to be written (well before the idle timeout), or the end of the grace window of a token a renewal
 * replaced, when that is the one presented; whichever comes first.
 */
export function unchangedUntil(
  auth: { session: { expiresAt: string; lastSeenAt: string }; presentedTokenEndsAt?: string },
  idleMs: number,
): number {
  const { session, presentedTokenEndsAt } = auth;
  return Math.min(
    Date.parse(session.expiresAt),
    Date.parse(session.lastSeenAt) + Math.min(idleMs, touchIntervalMs(idleMs)),
    presentedTokenEndsAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(presentedTokenEndsAt),
  );
}
