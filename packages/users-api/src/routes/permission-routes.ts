import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { adminIn, administrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import { permissionListBody, permissionQuery, permissionUserParams, userIdParams } from '../http/validation.js';
import { addPermissions, removePermission } from '../users/user-service.js';
import { setPermissions } from '../users/set-permissions.js';

const ADD = { params: permissionUserParams, body: permissionListBody };
const REMOVE = { querystring: permissionQuery };
const SET = { params: userIdParams, body: permissionListBody };

/**
 * Data roles and the administrator relation of members: add (PUT), remove one (DELETE), or set them all at once, as
 * the edit dialog does (`PUT /users/:id/permissions`, users/set-permissions.ts).
 */
export function registerPermissionRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.put('/permissions/:userId', { schema: ADD, preValidation: administrator(ctx, 'permissions.add') }, (request) => {
    const { params, body } = checked(request, ADD);
    return addPermissions(ctx, { caller: adminIn(request), request }, params.userId, body);
  });

  app.put(
    '/users/:id/permissions',
    { schema: SET, preValidation: administrator(ctx, 'permissions.set') },
    (request) => {
      const { params, body } = checked(request, SET);
      return setPermissions(ctx, { caller: adminIn(request), request }, params.id, body);
    },
  );

  app.delete(
    '/permissions',
    { schema: REMOVE, preValidation: administrator(ctx, 'permissions.remove') },
    async (request, reply) => {
      await removePermission(ctx, { caller: adminIn(request), request }, checked(request, REMOVE).query);
      return reply.code(204).send();
    },
  );
}
