import type { FastifyInstance } from 'fastify';
import { actorOf, adminOf, type ApiContext } from '../http/api-context.js';
import { errors } from '../http/api-error.js';
import { refuseGuest, targetOf } from '../users/target.js';
import { idParam } from '../users/user-id.js';

/**
 * The home organisation's actions on a person's account beyond the specification's: end every session
 * ('Afmelden op alle apparaten') and lift the lock after too many failed sign-ins ('Ontgrendelen').
 */
export function registerAccountRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const { backend } = ctx;

  app.delete<{ Params: { id: string } }>('/users/:id/sessions', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.end_sessions');
    const { user, home } = await targetOf(ctx, caller.activeOrg, idParam(request.params.id));
    if (!home) await refuseGuest(ctx, caller, request, 'user.end_sessions', user);
    await backend.identities.revokeSessions(user.id);
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: 'user.end_sessions',
      objectId: user.id,
      objectEmail: user.traits.email,
      result: 'success',
    });
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/users/:id/lock', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.unlock');
    const { user, home } = await targetOf(ctx, caller.activeOrg, idParam(request.params.id));
    if (!home) await refuseGuest(ctx, caller, request, 'user.unlock', user);
    if (!(await backend.identities.unlock(user.id))) throw errors.noLocks();
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: 'user.unlock',
      objectId: user.id,
      objectEmail: user.traits.email,
      result: 'success',
      details: { wasLockedUntil: user.lockedUntil ?? null },
    });
    return reply.code(204).send();
  });
}
