import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { adminIn, administrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import { permissionListBody, permissionQuery, permissionUserParams } from '../http/validation.js';
import { addPermissions, removePermission } from '../users/user-service.js';

const ADD = { params: permissionUserParams, body: permissionListBody };
const REMOVE = { querystring: permissionQuery };

/** Data roles and the administrator relation of members: add (PUT) and remove one (DELETE). */
export function registerPermissionRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.put('/permissions/:userId', { schema: ADD, preValidation: administrator(ctx, 'permissions.add') }, (request) => {
    const { params, body } = checked(request, ADD);
    return addPermissions(ctx, { caller: adminIn(request), request }, params.userId, body);
  });

  app.delete(
    '/permissions',
    { schema: REMOVE, preValidation: administrator(ctx, 'permissions.remove') },
    async (request, reply) => {
      await removePermission(ctx, { caller: adminIn(request), request }, checked(request, REMOVE).query);
      return reply.code(204).send();
    },
  );
}
