import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IdpServices } from '../../services.js';
import { HttpError } from '../../errors/herodot.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { clearSessionCookie } from '../../http/cookies.js';
import { publicUrlOf } from '../../http/return-to.js';
import { authenticate } from '../../sessions/authenticate.js';
import { findSessionByToken, revokeSession } from '../../sessions/session-repository.js';
import { redirect, regenerateCsrfCookie, sendJson, wantsRedirect, withBrowserErrors } from '../flow-http.js';
import { queryOf, returnToOf, returnUrlOf } from '../flow-request.js';
import { logoutTokenOf } from './logout-token.js';

/** Browser and API logout (docs/kratos-compatibility.md#logout). */
export function registerLogoutRoutes(app: FastifyInstance, services: IdpServices): void {
  const { ctx } = services;

  app.get('/self-service/logout/browser', async (request, reply) => {
    const asRedirect = wantsRedirect(request);
    return withBrowserErrors(services, request, reply, asRedirect, async () => {
      const query = queryOf(request);
      const returnTo = returnToOf(services, query);
      const auth = await authenticate(services, request);
      if (!auth) throw kratosErrors.sessionInactive();
      const token = logoutTokenOf(ctx.config.cookieSecret, auth.session.id);
      return sendJson(reply, 200, {
        logout_url: publicUrlOf(ctx.config, '/self-service/logout', { token, return_to: returnTo ?? undefined }),
        logout_token: token,
      });
    });
  });

  app.get('/self-service/logout', async (request, reply) => {
    const asRedirect = wantsRedirect(request);
    return withBrowserErrors(services, request, reply, asRedirect, async () => {
      const query = queryOf(request);
      if (!query.token) throw new HttpError({ code: 400, reason: 'Please include a token in the URL query.' });
      const returnTo = returnToOf(services, query);
      const auth = await authenticate(services, request);
      if (!auth) throw kratosErrors.sessionInactive();
      const expected = logoutTokenOf(ctx.config.cookieSecret, auth.session.id);
      const ok =
        query.token.length === expected.length &&
        crypto.timingSafeEqual(Buffer.from(query.token), Buffer.from(expected));
      if (!ok) {
        throw new HttpError({
          code: 403,
          reason: 'Unable to log out because the logout token in the URL query does not match the session cookie.',
        });
      }
      await revokeSession(ctx.db.kysely, auth.session.id);
      clearSessionCookie(reply, ctx.config);
      regenerateCsrfCookie(services, reply);
      if (asRedirect) return redirect(reply, returnUrlOf(services, returnTo));
      return reply.code(204).send();
    });
  });

  app.delete('/self-service/logout/api', async (request, reply) => {
    const body = request.body as Record<string, unknown> | undefined;
    const token = body && typeof body === 'object' ? body.session_token : undefined;
    const session =
      typeof token === 'string' && token.length < 200 ? await findSessionByToken(ctx.db.kysely, token) : undefined;
    if (!session?.active) {
      throw new HttpError({
        code: 403,
        reason: 'The provided Ory Session Token could not be found, is invalid, or otherwise malformed.',
      });
    }
    await revokeSession(ctx.db.kysely, session.id);
    return reply.code(204).send();
  });
}
