import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { adminIn, administrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import { userIdParams } from '../http/validation.js';
import { endSessions, unlockUser } from '../users/user-service.js';

const ONE = { params: userIdParams };

/**
 * The home organisation's actions on a person's account beyond the specification's: end every session
 * ('Afmelden op alle apparaten') and lift the lock after too many failed sign-ins ('Ontgrendelen').
 */
export function registerAccountRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.delete(
    '/users/:id/sessions',
    { schema: ONE, preValidation: administrator(ctx, 'user.end_sessions') },
    async (request, reply) => {
      await endSessions(ctx, { caller: adminIn(request), request }, checked(request, ONE).params.id);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/users/:id/lock',
    { schema: ONE, preValidation: administrator(ctx, 'user.unlock') },
    async (request, reply) => {
      await unlockUser(ctx, { caller: adminIn(request), request }, checked(request, ONE).params.id);
      return reply.code(204).send();
    },
  );
}
