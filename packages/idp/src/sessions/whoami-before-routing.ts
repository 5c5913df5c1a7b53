import type { IncomingHttpHeaders } from 'node:http';
import { JSON_HEADERS } from '../http/send-json.js';
import type { IdpServices } from '../services.js';
import { authenticateSessionOf, sessionRequestOf } from './authenticate.js';
import { KeptAnswers, presentedCredentials, unchangedUntil } from './kept-answers.js';
import { meetsHighestAvailableAal, whoamiAnswer } from './session-routes.js';

/** An answer made before the HTTP framework routed the request. */
export interface EarlyAnswer {
  /** The route as the metrics name it (Fastify's route pattern). */
  route: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Answers requests for one path (the URL before any query string) before routing, or answers undefined and leaves
 * the request to the route. Requests for other paths never reach it.
 */
export interface EarlyAnswerer {
  path: string;
  answer(method: string | undefined, url: string, headers: IncomingHttpHeaders): Promise<EarlyAnswer | undefined>;
}

/** Answers kept, at most. A few kB each (the answer, the credentials as sent). */
const KEPT_SESSIONS = 10_000;
const WHOAMI = '/sessions/whoami';

/**
 * whoami for the case that every page of the portal and every proxied request of a data service pays for: `GET
 * /sessions/whoami` with a live session that may have it. It is answered before Fastify's routing and hooks, with the
 * same statement, rule and answer as the route. Everything else answers undefined and goes through the route as
 * before: no or an ended session (401), the second-factor refusal (403), another method, a query string, a path
 * spelt differently.
 *
 * The answer is kept per presented credentials while the check mark stays the same (kept-answers.ts), so a logout,
 * block, 2FA reset or revocation anywhere counts at the very next request, as without keeping
 * (e2e/api/two-processes-revocation.test.ts).
 */
export function whoamiBeforeRouting(services: IdpServices): EarlyAnswerer {
  const { config, clock, db } = services.ctx;
  const kept = new KeptAnswers<EarlyAnswer>(KEPT_SESSIONS);

  const answer: EarlyAnswerer['answer'] = async (method, url, headers) => {
    if (method !== 'GET' || url !== WHOAMI) return undefined;
    const mark = await db.changeMark();
    const key = presentedCredentials(headers);
    const hit = kept.get(key, mark, clock.now().getTime());
    if (hit) return hit;
    const auth = await authenticateSessionOf(services, sessionRequestOf(headers));
    if (!auth) return undefined;
    if (config.whoamiRequiredAal === 'highest_available' && !meetsHighestAvailableAal(auth)) return undefined;
    const { identityId, body } = whoamiAnswer(services, auth);
    const answer = {
      route: WHOAMI,
      status: 200,
      headers: { ...JSON_HEADERS, 'X-Kratos-Authenticated-Identity-Id': identityId },
      body,
    };
    kept.keep(key, mark, unchangedUntil(auth, config.lifespans.sessionIdleMs), answer);
    return answer;
  };
  return { path: WHOAMI, answer };
}
