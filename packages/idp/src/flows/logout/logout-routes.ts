import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { publicUrlOf } from '../../http/return-to.js';
import { findSessionByToken, revokeSession } from '../../sessions/session-repository.js';
import { answer } from '../answer.js';
import { creationContext, type FlowContext } from '../flow-context.js';
import { regenerateCsrfCookie } from '../flow-http.js';
import { returnToOf, returnUrlOf } from '../flow-request.js';
import type { Outcome } from '../outcome.js';
import { logoutTokenOf } from './logout-token.js';

/** `GET /self-service/logout/browser`: the logout URL and token of the browser's session. */
async function createLogoutUrl(ctx: FlowContext): Promise<Outcome> {
  const { config } = ctx.idp;
  const returnTo = returnToOf(ctx.services, ctx.query);
  const auth = await ctx.auth();
  if (!auth) throw kratosErrors.sessionInactive();
  const token = logoutTokenOf(config.cookieSecret, auth.session.id);
  const body = {
    logout_url: publicUrlOf(config, '/self-service/logout', { token, return_to: returnTo ?? undefined }),
    logout_token: token,
  };
  return { kind: 'json', status: 200, body };
}

/** `GET /self-service/logout?token=`: ends the session whose logout token it is. */
async function logOut(ctx: FlowContext): Promise<Outcome> {
  const { db, config } = ctx.idp;
  const sent = ctx.query.token;
  if (!sent) throw kratosErrors.logoutTokenMissing();
  const returnTo = returnToOf(ctx.services, ctx.query);
  const auth = await ctx.auth();
  if (!auth) throw kratosErrors.sessionInactive();
  const expected = logoutTokenOf(config.cookieSecret, auth.session.id);
  const ok = sent.length === expected.length && crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
  if (!ok) throw kratosErrors.logoutTokenMismatch();
  await revokeSession(db.kysely, auth.session.id);
  ctx.effects.clearSession();
  regenerateCsrfCookie(ctx);
  return { kind: 'browser_redirect', to: returnUrlOf(ctx.services, returnTo), otherwise: { kind: 'no_content' } };
}

/** Browser and API logout (docs/kratos-compatibility.md#logout). */
export function registerLogoutRoutes(app: FastifyInstance, services: IdpServices): void {
  const { ctx } = services;
  app.get('/self-service/logout/browser', (request, reply) =>
    answer(creationContext({ services, request, reply }, 'logout', 'browser'), createLogoutUrl),
  );
  app.get('/self-service/logout', (request, reply) =>
    answer(creationContext({ services, request, reply }, 'logout', 'browser'), logOut),
  );

  app.delete('/self-service/logout/api', async (request, reply) => {
    const body = request.body as Record<string, unknown> | undefined;
    const token = body && typeof body === 'object' ? body.session_token : undefined;
    const session =
      typeof token === 'string' && token.length < 200 ? await findSessionByToken(ctx.db.kysely, token) : undefined;
    if (!session?.active) throw kratosErrors.invalidSessionToken();
    await revokeSession(ctx.db.kysely, session.id);
    return reply.code(204).send();
  });
}
