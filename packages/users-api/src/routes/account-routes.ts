import type { FastifyInstance } from 'fastify';
import { adminOf, type ApiContext } from '../http/api-context.js';
import { idParam } from '../users/user-id.js';
import { endSessions, unlockUser } from '../users/user-service.js';

/**
 * The home organisation's actions on a person's account beyond the specification's: end every session
 * ('Afmelden op alle apparaten') and lift the lock after too many failed sign-ins ('Ontgrendelen').
 */
export function registerAccountRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.delete<{ Params: { id: string } }>('/users/:id/sessions', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.end_sessions');
    await endSessions(ctx, { caller, request }, idParam(request.params.id));
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/users/:id/lock', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.unlock');
    await unlockUser(ctx, { caller, request }, idParam(request.params.id));
    return reply.code(204).send();
  });
}
