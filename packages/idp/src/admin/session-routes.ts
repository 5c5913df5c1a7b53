import type { FastifyInstance } from 'fastify';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { sendJson } from '../http/send-json.js';
import { findIdentity } from '../identities/identity-repository.js';
import {
  findSession,
  listSessionsOfIdentity,
  revokeSession,
  revokeSessionsOfIdentity,
} from '../sessions/session-repository.js';
import { isSessionActive, sessionJson } from '../sessions/session-json.js';
import { isUuid } from './identity-reads.js';

/** Admin session endpoints used by the product (docs/kratos-compatibility.md#admin-sessions). */
export function registerAdminSessionRoutes(app: FastifyInstance, services: IdpServices): void {
  const { db, clock, config } = services.ctx;
  const asAdmin = { admin: true };

  app.get<{ Params: { id: string } }>('/admin/identities/:id/sessions', async (request, reply) => {
    const { id } = request.params;
    const identity = isUuid(id) ? await findIdentity(db.kysely, id.toLowerCase()) : undefined;
    if (!identity) throw kratosErrors.identityNotFound();
    const activeFilter = (request.query as Record<string, unknown>).active;
    const now = clock.now();
    const sessions = (await listSessionsOfIdentity(db.kysely, identity.id)).filter((s) => {
      if (activeFilter === undefined) return true;
      return isSessionActive(s, identity, now, config.lifespans.sessionIdleMs) === (activeFilter === 'true');
    });
    return sendJson(
      reply,
      200,
      sessions.map((s) => sessionJson(services.ctx, s, identity, asAdmin)),
    );
  });

  app.delete<{ Params: { id: string } }>('/admin/identities/:id/sessions', async (request, reply) => {
    const { id } = request.params;
    if (!isUuid(id) || !(await findIdentity(db.kysely, id.toLowerCase()))) throw kratosErrors.identityNotFound();
    await revokeSessionsOfIdentity(db.kysely, id.toLowerCase());
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/admin/sessions/:id', async (request, reply) => {
    const { id } = request.params;
    const session = isUuid(id) ? await findSession(db.kysely, id.toLowerCase()) : undefined;
    if (!session) throw kratosErrors.sessionNotFound();
    const identity = await findIdentity(db.kysely, session.identityId);
    return sendJson(reply, 200, sessionJson(services.ctx, session, identity, asAdmin));
  });

  app.delete<{ Params: { id: string } }>('/admin/sessions/:id', async (request, reply) => {
    const { id } = request.params;
    const session = isUuid(id) ? await findSession(db.kysely, id.toLowerCase()) : undefined;
    if (!session) throw kratosErrors.sessionNotFound();
    await revokeSession(db.kysely, session.id);
    return reply.code(204).send();
  });
}
