import type { IncomingHttpHeaders } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import { JSON_HEADERS } from '../flows/flow-http.js';
import type { IdpServices } from '../services.js';
import { authenticateSessionOf } from './authenticate.js';
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

/**
 * whoami for the case that every page of the portal and every proxied request of a data service pays for: `GET
 * /sessions/whoami` with a live session that may have it. It is answered before Fastify's routing and hooks, which
 * cost as much as the session check itself (bench/README.md#whoami), with the same statement, rule and answer as the
 * route. Everything else answers undefined and goes through the route as before: no or an ended session (401),
 * the second-factor refusal (403), another method, a query string, a path spelt differently.
 */
export function whoamiBeforeRouting(services: IdpServices): EarlyAnswerer {
  const { config } = services.ctx;
  return async (method, url, headers) => {
    if (method !== 'GET' || url !== '/sessions/whoami') return undefined;
    let cookies: Record<string, string | undefined> | undefined;
    const auth = await authenticateSessionOf(services, {
      headers,
      cookie: (name) => {
        cookies ??= headers.cookie ? fastifyCookie.parse(headers.cookie) : {};
        return cookies[name];
      },
    });
    if (!auth) return undefined;
    if (config.whoamiRequiredAal === 'highest_available' && !meetsHighestAvailableAal(auth)) return undefined;
    const answer = whoamiAnswer(services, auth);
    return {
      status: 200,
      headers: { ...JSON_HEADERS, 'X-Kratos-Authenticated-Identity-Id': answer.identityId },
      body: answer.body,
    };
  };
}
