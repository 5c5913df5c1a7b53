import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { publicUrlOf } from '../http/return-to.js';

import { sendJson, sendJsonText } from '../http/send-json.js';
import { authenticateSession, type AuthenticatedSession } from './authenticate.js';
import { sessionAal } from './aal.js';
import { listSessionsOfIdentity, revokeSession, revokeSessionsOfIdentity, findSession } from './session-repository.js';
import { isSessionActive, sessionJson } from './session-json.js';

/**
 * `highest_available`: an identity with a second factor needs an aal2 session
 * (docs/kratos-compatibility.md#assurance-levels).
 */
export function ensureHighestAvailableAal(services: IdpServices, auth: AuthenticatedSession, returnTo?: string): void {
  if (!meetsHighestAvailableAal(auth)) {
    throw kratosErrors.sessionAal2Required(
      publicUrlOf(services.ctx.config, '/self-service/login/browser', { aal: 'aal2', return_to: returnTo }),
    );
  }
}

export const meetsHighestAvailableAal = (auth: AuthenticatedSession): boolean =>
  !auth.secondFactorAvailable || sessionAal(auth.session.methods) === 'aal2';

/** whoami's answer to a session that may have it: the session and the identity's id in Kratos' header. */
export const whoamiAnswer = (services: IdpServices, auth: AuthenticatedSession) => ({
  identityId: auth.identity.id,
  body: JSON.stringify(sessionJson(services.ctx, auth.session, auth.identity)),
});

// These routes need no credentials, only whether a second factor exists: one statement per request.
async function requireSession(
  services: IdpServices,
  request: FastifyRequest,
  reason?: string,
): Promise<AuthenticatedSession> {
  const auth = await authenticateSession(services, request);
  if (!auth) throw kratosErrors.noSessionCredentials(reason);
  return auth;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `/sessions/whoami`, `/sessions` list, revoke one, revoke others (docs/kratos-compatibility.md#sessions-api). */
export function registerSessionRoutes(app: FastifyInstance, services: IdpServices): void {
  const { ctx } = services;

  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/sessions/whoami',
    handler: async (request, reply) => {
      const auth = await requireSession(services, request);
      if (ctx.config.whoamiRequiredAal === 'highest_available') ensureHighestAvailableAal(services, auth);
      const answer = whoamiAnswer(services, auth);
      void reply.header('X-Kratos-Authenticated-Identity-Id', answer.identityId);
      return sendJsonText(reply, 200, answer.body);
    },
  });

  app.get('/sessions', async (request, reply) => {
    const auth = await requireSession(services, request, 'No valid session cookie found.');
    ensureHighestAvailableAal(services, auth);
    const now = ctx.clock.now();
    const others = (await listSessionsOfIdentity(ctx.db.kysely, auth.identity.id)).filter(
      (s) => s.id !== auth.session.id && isSessionActive(s, auth.identity, now, ctx.config.lifespans.sessionIdleMs),
    );
    void reply.header('X-Total-Count', String(others.length));
    return sendJson(
      reply,
      200,
      others.map((s) => sessionJson(ctx, s, auth.identity)),
    );
  });

  app.delete('/sessions', async (request, reply) => {
    const auth = await requireSession(services, request);
    const count = await revokeSessionsOfIdentity(ctx.db.kysely, auth.identity.id, auth.session.id);
    return sendJson(reply, 200, { count });
  });

  app.delete<{ Params: { id: string } }>('/sessions/:id', async (request, reply) => {
    const auth = await requireSession(services, request);
    const { id } = request.params;
    if (!UUID.test(id)) throw kratosErrors.badRequest('The session id must be a UUID.');
    if (id === auth.session.id) throw kratosErrors.cannotRevokeCurrentSession();
    const target = await findSession(ctx.db.kysely, id);
    if (target && target.identityId === auth.identity.id) await revokeSession(ctx.db.kysely, id);
    return reply.code(204).send();
  });
}
