import type { FastifyInstance } from 'fastify';
import { adminOf, type ApiContext } from '../http/api-context.js';
import { createUserSchema, existenceQuery, listQuery, parse, updateUserSchema } from '../http/validation.js';
import { idParam } from '../users/user-id.js';
import { createUser, deleteUser, listUsers, resetSecondFactor, updateUser, userExists } from '../users/user-service.js';

const STATUS_OF = { created: 201, added: 200, invited: 202 } as const;

/**
 * The administrators' user calls: list, existence check, create, update, delete, reset 2FA. The rules are in
 * users/user-service.ts; each route parses, calls and answers.
 */
export function registerUserRoutes(app: FastifyInstance, ctx: ApiContext): void {
  // HEAD /users is the existence check below, not Fastify's automatic HEAD of this GET.
  app.get('/users', { exposeHeadRoute: false }, async (request) => {
    const caller = await adminOf(ctx, request, 'user.list');
    return listUsers(ctx, caller, listQuery(request.query));
  });

  // The new-user form's existence check: open to administrators by design, so throttled and audited.
  app.head('/users', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.exists');
    const email = existenceQuery(request.query);
    return reply.code((await userExists(ctx, { caller, request }, email)) ? 200 : 404).send();
  });

  app.post('/users', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.create');
    const result = await createUser(ctx, { caller, request }, parse(createUserSchema, request.body));
    return reply
      .code(STATUS_OF[result.kind])
      .send(result.kind === 'invited' ? { invitation: result.invitation } : true);
  });

  app.put<{ Params: { id: string } }>('/users/:id', async (request) => {
    const caller = await adminOf(ctx, request, 'user.update');
    const id = idParam(request.params.id);
    return updateUser(ctx, { caller, request }, id, parse(updateUserSchema, request.body));
  });

  app.delete('/users', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.delete');
    await deleteUser(ctx, { caller, request }, idParam((request.query as Record<string, unknown>).id));
    return reply.code(204).send();
  });

  app.delete<{ Params: { id: string } }>('/users/:id/totp', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'user.reset_2fa');
    await resetSecondFactor(ctx, { caller, request }, idParam(request.params.id));
    return reply.code(204).send();
  });
}
