import type { FastifyInstance } from 'fastify';
import { adminOf, type ApiContext } from '../http/api-context.js';
import { parse, permissionListSchema, permissionQuery } from '../http/validation.js';
import { idParam } from '../users/user-id.js';
import { addPermissions, removePermission } from '../users/user-service.js';

/** Data roles and the administrator relation of members: add (PUT) and remove one (DELETE). */
export function registerPermissionRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.put<{ Params: { userId: string } }>('/permissions/:userId', async (request) => {
    const caller = await adminOf(ctx, request, 'permissions.add');
    const userId = idParam(request.params.userId);
    return addPermissions(ctx, { caller, request }, userId, parse(permissionListSchema, request.body));
  });

  app.delete('/permissions', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'permissions.remove');
    await removePermission(ctx, { caller, request }, permissionQuery(request.query));
    return reply.code(204).send();
  });
}
