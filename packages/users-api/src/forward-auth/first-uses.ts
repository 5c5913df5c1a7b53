/**
 * Which sessions this process has already seen use which service, so that the audit log gets a service sign-in once
 * per session and service rather than a row per proxied request (docs/security.md#51-forward-authentication).
 * It decides only what is written to the log, never who is let through: every check reads the session and the
 * tuples again. Bounded: past `limit` entries the oldest is forgotten (and audited again when it comes back).
 */
export interface FirstUses {
  /** True the first time `sessionId` uses `serviceId` (since it was last refused there); false afterwards. */
  first(sessionId: string, serviceId: string): boolean;
  /** Forgets a pair, so that the next allowed use is audited again (after a refusal). */
  forget(sessionId: string, serviceId: string): void;
}

export function createFirstUses(limit = 10_000): FirstUses {
  const seen = new Set<string>();
  const key = (sessionId: string, serviceId: string) => `${sessionId} ${serviceId}`;
  return {
    first(sessionId, serviceId) {
      const pair = key(sessionId, serviceId);
      if (seen.has(pair)) return false;
      seen.add(pair);
      // A Set iterates in insertion order: the first value is the oldest.
      if (seen.size > limit) seen.delete(seen.values().next().value!);
      return true;
    },
    forget(sessionId, serviceId) {
      seen.delete(key(sessionId, serviceId));
    },
  };
}
