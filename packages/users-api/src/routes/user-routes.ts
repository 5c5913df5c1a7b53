import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { adminIn, administrator } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import {
  createUserBody,
  csvQuery,
  existenceQuery,
  listQuery,
  updateUserBody,
  userIdParams,
  userIdQuery,
} from '../http/validation.js';
import { pageOfUsers, shownUsers } from '../users/user-page.js';
import { createUser, deleteUser, listUsers, resetSecondFactor, updateUser, userExists } from '../users/user-service.js';
import { usersCsv, usersCsvName } from '../users/users-csv.js';

const STATUS_OF = { created: 201, added: 200, invited: 202 } as const;

const LIST = { querystring: listQuery };
const CSV = { querystring: csvQuery };
const EXISTS = { querystring: existenceQuery };
const CREATE = { body: createUserBody };
const UPDATE = { params: userIdParams, body: updateUserBody };
const DELETE = { querystring: userIdQuery };
const ONE = { params: userIdParams };

/**
 * The administrators' user calls: list (whole, a page, or CSV), existence check, create, update, delete, reset 2FA.
 * The rules are in users/user-service.ts and users/user-page.ts; each route declares its input, calls and answers.
 */
export function registerUserRoutes(app: FastifyInstance, ctx: ApiContext): void {
  // HEAD /users is the existence check below, not Fastify's automatic HEAD of this GET.
  app.get(
    '/users',
    { exposeHeadRoute: false, schema: LIST, preValidation: administrator(ctx, 'user.list') },
    async (request) => {
      const { email, paging } = checked(request, LIST).query;
      const caller = adminIn(request);
      return paging ? pageOfUsers(ctx, caller, { ...paging, email }) : listUsers(ctx, caller, email);
    },
  );

  // The overview's download: everyone the search leaves, in the order chosen, streamed as it is written.
  app.get('/users.csv', { schema: CSV, preValidation: administrator(ctx, 'user.list') }, async (request, reply) => {
    const caller = adminIn(request);
    const shown = await shownUsers(ctx, caller, checked(request, CSV).query);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${usersCsvName(caller.activeOrg.id, new Date())}"`)
      .send(Readable.from(usersCsv(shown)));
  });

  // The new-user form's existence check: open to administrators by design, so throttled and audited.
  app.head('/users', { schema: EXISTS, preValidation: administrator(ctx, 'user.exists') }, async (request, reply) => {
    const found = await userExists(ctx, { caller: adminIn(request), request }, checked(request, EXISTS).query.email);
    return reply.code(found ? 200 : 404).send();
  });

  app.post('/users', { schema: CREATE, preValidation: administrator(ctx, 'user.create') }, async (request, reply) => {
    const result = await createUser(ctx, { caller: adminIn(request), request }, checked(request, CREATE).body);
    return reply
      .code(STATUS_OF[result.kind])
      .send(result.kind === 'invited' ? { invitation: result.invitation } : true);
  });

  app.put('/users/:id', { schema: UPDATE, preValidation: administrator(ctx, 'user.update') }, async (request) => {
    const { params, body } = checked(request, UPDATE);
    return updateUser(ctx, { caller: adminIn(request), request }, params.id, body);
  });

  app.delete('/users', { schema: DELETE, preValidation: administrator(ctx, 'user.delete') }, async (request, reply) => {
    await deleteUser(ctx, { caller: adminIn(request), request }, checked(request, DELETE).query.id);
    return reply.code(204).send();
  });

  app.delete(
    '/users/:id/totp',
    { schema: ONE, preValidation: administrator(ctx, 'user.reset_2fa') },
    async (request, reply) => {
      await resetSecondFactor(ctx, { caller: adminIn(request), request }, checked(request, ONE).params.id);
      return reply.code(204).send();
    },
  );
}
