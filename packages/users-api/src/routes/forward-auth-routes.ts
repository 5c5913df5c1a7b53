import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createFirstUses } from '../forward-auth/first-uses.js';
import { checkForwardAuth, type ForwardAuthOutcome } from '../forward-auth/forward-auth-service.js';
import { createRefusalCounts } from '../forward-auth/refusal-counts.js';
import type { keptForwardAuthChecks } from '../forward-auth/kept-checks.js';
import { refusalPage } from '../forward-auth/refusal-page.js';
import { SIGN_IN_HEADER } from '../forward-auth/identity-headers.js';
import { firstValue } from '../forward-auth/service-choice.js';
import type { ApiContext } from '../context.js';
import { ApiError, errors } from '../api-error.js';
import { brandOf, HOUSE_STYLE_SOURCE } from '../http/house-page.js';
import { checked } from '../http/request-schema.js';
import { forwardAuthQuery } from '../http/validation.js';

/** The refusal page's policy: its own style and nothing else, and never inside another site's frame. */
const REFUSAL_PAGE_POLICY = `default-src 'none'; style-src ${HOUSE_STYLE_SOURCE}; frame-ancestors 'none'`;

const QUERY = { querystring: forwardAuthQuery };

/**
 * Whether the browser's own request was a page it navigates to (GET or HEAD, asking for HTML), as the proxy
 * forwards it: only such a request is sent on to the sign-in; a script's call or a form's POST gets the 401.
 */
function navigates(request: FastifyRequest): boolean {
  const method = firstValue(request.headers['x-forwarded-method']) ?? request.method;
  return (method === 'GET' || method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');
}

/**
 * `GET /api/forward-auth`: the answer to a reverse proxy's sub-request (nginx `auth_request`, Traefik `ForwardAuth`)
 * about the data service the browser asked for (docs/architecture.md#forward-authentication). 200 with the identity
 * headers; 401 with `X-Portaal-Sign-In` (or, with `?redirect=true` for a page, a 302 there); 403 without access
 * (with `?redirect=true` for a page, as a short Dutch page).
 */
export function registerForwardAuthRoutes(
  app: FastifyInstance,
  ctx: ApiContext,
  kept: ReturnType<typeof keptForwardAuthChecks>,
): void {
  const refusals = createRefusalCounts(async (entry) => {
    try {
      await ctx.audit.record(entry);
    } catch (error) {
      app.log.error({ err: error }, 'forward-auth refusal audit write failed');
    }
  });
  const memory = { firstUses: createFirstUses(), refusals };
  // On shutdown the current minute's refusals are written before the database closes (apps/server's `close`).
  app.addHook('onClose', () => refusals.flush());
  app.get('/forward-auth', { schema: QUERY }, async (request, reply) => {
    const { service, redirect } = checked(request, QUERY).query;
    // Only a proxy that hands the answer to the browser asks for pages: a 302 to the sign-in, a page for a refusal.
    const page = redirect === 'true' && navigates(request);
    let outcome: ForwardAuthOutcome;
    // Read before the check, so that a change made while it runs makes the kept pass miss next time.
    const mark = await kept.mark();
    try {
      outcome = await checkForwardAuth(ctx, request, service, memory);
    } catch (error) {
      if (!(page && error instanceof ApiError && error.code === 403)) throw error;
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .headers({ 'Content-Security-Policy': REFUSAL_PAGE_POLICY, 'X-Frame-Options': 'DENY' })
        .send(refusalPage(error.message, ctx.options.publicUrl, brandOf(ctx.options)));
    }
    if (outcome.allowed) {
      kept.keep(request.headers, mark, outcome);
      return reply.code(200).headers(outcome.headers).send();
    }
    if (page) return reply.redirect(outcome.signIn, 302);
    const error = errors.serviceSignIn(outcome.signIn, outcome.secondFactor);
    return reply.code(error.code).header(SIGN_IN_HEADER, outcome.signIn).send(error.toEnvelope());
  });
}
