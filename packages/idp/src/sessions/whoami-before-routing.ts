import type { IncomingHttpHeaders } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import { JSON_HEADERS } from '../http/send-json.js';
import type { IdpServices } from '../services.js';
import { authenticateSessionOf, touchIntervalMs } from './authenticate.js';
import { meetsHighestAvailableAal, whoamiAnswer } from './session-routes.js';

/** An answer made before the HTTP framework routed the request. */
export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type EarlyAnswerer = (
  method: string | undefined,
  url: string | undefined,
  headers: IncomingHttpHeaders,
) => Promise<EarlyAnswer | undefined>;

/** A whoami answer kept for its token while the database's change mark stays the same. */
interface Kept {
  mark: string;
  expiresAt: number;
  lastSeenAt: number;
  answer: EarlyAnswer;
}

/** Answers kept, at most; the oldest goes first. A few kB each (the answer, the credentials as sent). */
const KEPT_SESSIONS = 10_000;

/**
 * whoami for the case that every page of the portal and every proxied request of a data service pays for: `GET
 * /sessions/whoami` with a live session that may have it. It is answered before Fastify's routing and hooks, with the
 * same statement, rule and answer as the route. Everything else answers undefined and goes through the route as
 * before: no or an ended session (401), the second-factor refusal (403), another method, a query string, a path
 * spelt differently.
 *
 * On SQLite the answer is kept per token while the database's change mark (`Db.changeMark`) stays the same: any
 * commit by another process and any change made here changes it, so a logout, block, 2FA reset or revocation
 * anywhere counts at the very next request, as without keeping (e2e/api/two-processes-revocation.test.ts). The
 * session's own clocks (expiry, idle timeout, the once-a-minute idle write) are checked at every request.
 */
export function whoamiBeforeRouting(services: IdpServices): EarlyAnswerer {
  const { config, clock, db } = services.ctx;
  const idleMs = config.lifespans.sessionIdleMs;
  const touchMs = touchIntervalMs(idleMs);
  const kept = new Map<string, Kept>();

  return async (method, url, headers) => {
    if (method !== 'GET' || url !== '/sessions/whoami') return undefined;
    let cookies: Record<string, string | undefined> | undefined;
    const request = {
      headers,
      cookie: (name: string) => {
        cookies ??= headers.cookie ? fastifyCookie.parse(headers.cookie) : {};
        return cookies[name];
      },
    };
    // Read before the session, so that a change made while it is read makes the kept answer miss next time.
    const mark = db.changeMark?.();
    const key = `${headers['x-session-token'] ?? ''}\n${headers.authorization ?? ''}\n${headers.cookie ?? ''}`;
    const now = clock.now().getTime();
    const hit = mark === undefined ? undefined : kept.get(key);
    if (hit && hit.mark === mark && now < hit.expiresAt && now - hit.lastSeenAt < Math.min(idleMs, touchMs)) {
      return hit.answer;
    }
    kept.delete(key);
    const auth = await authenticateSessionOf(services, request);
    if (!auth) return undefined;
    if (config.whoamiRequiredAal === 'highest_available' && !meetsHighestAvailableAal(auth)) return undefined;
    const { identityId, body } = whoamiAnswer(services, auth);
    const answer = {
      status: 200,
      headers: { ...JSON_HEADERS, 'X-Kratos-Authenticated-Identity-Id': identityId },
      body,
    };
    if (mark !== undefined) {
      if (kept.size >= KEPT_SESSIONS) kept.delete(kept.keys().next().value!);
      const { expiresAt, lastSeenAt } = auth.session;
      kept.set(key, { mark, expiresAt: Date.parse(expiresAt), lastSeenAt: Date.parse(lastSeenAt), answer });
    }
    return answer;
  };
}
