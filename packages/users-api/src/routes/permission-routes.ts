import type { FastifyInstance } from 'fastify';
import { actorOf, adminOf, type ApiContext } from '../http/api-context.js';
import { errors } from '../http/api-error.js';
import { parse, permissionListSchema } from '../http/validation.js';
import { MEMBERSHIP } from '../users/caller.js';
import { memberTuples, tuplesFor } from '../users/membership.js';
import { permissionsWithin, withinOrganisation } from '../users/user-json.js';
import { UUID } from '../users/user-id.js';

/** Data roles and the administrator relation of members: add (PUT) and remove one (DELETE). */
export function registerPermissionRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const { backend } = ctx;

  app.put<{ Params: { userId: string } }>('/permissions/:userId', async (request) => {
    const caller = await adminOf(ctx, request, 'permissions.add');
    const org = caller.activeOrg;
    const userId = request.params.userId.toLowerCase();
    if (!UUID.test(userId)) throw errors.notMember();
    const requested = parse(permissionListSchema, request.body);
    await memberTuples(backend.relations, org, userId);
    const tuples = tuplesFor(org, userId, requested);
    await backend.relations.patch({ insert: tuples });
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: 'permissions.add',
      objectId: userId,
      result: 'success',
      details: { relations: tuples.map((t) => `${t.namespace}:${t.object}#${t.relation}`) },
    });
    return permissionsWithin(await backend.relations.list({ subject_id: userId }), org);
  });

  app.delete('/permissions', async (request, reply) => {
    const caller = await adminOf(ctx, request, 'permissions.remove');
    const org = caller.activeOrg;
    const query = request.query as Record<string, unknown>;
    const tuple = {
      namespace: query.namespace,
      object: query.object,
      relation: query.relation,
      subject_id: query.subject_id,
    };
    if (
      typeof tuple.subject_id !== 'string' ||
      !UUID.test(tuple.subject_id) ||
      typeof tuple.namespace !== 'string' ||
      typeof tuple.object !== 'string' ||
      typeof tuple.relation !== 'string'
    ) {
      throw errors.invalid(
        'namespace, object, relation and subject_id are required.',
        'Geef aan welk recht van welke gebruiker weg moet.',
      );
    }
    const target = {
      namespace: tuple.namespace,
      object: tuple.object,
      relation: tuple.relation,
      subject_id: tuple.subject_id.toLowerCase(),
    };
    if (!withinOrganisation(target, org.id)) throw errors.forbiddenTuple();
    if (target.namespace === 'organizations' && MEMBERSHIP.has(target.relation)) {
      throw errors.invalid(
        'Remove a member with DELETE /users.',
        'Een gebruiker haal je uit je organisatie met Verwijderen.',
      );
    }
    if (
      target.namespace === 'organizations' &&
      target.relation === 'admin' &&
      target.subject_id === caller.session.identity.id
    )
      throw errors.selfChange();
    await memberTuples(backend.relations, org, target.subject_id);
    await backend.relations.patch({ delete: [target] });
    await ctx.audit.record({
      ...actorOf(caller, request),
      action: 'permissions.remove',
      objectId: target.subject_id,
      result: 'success',
      details: { relation: `${target.namespace}:${target.object}#${target.relation}` },
    });
    return reply.code(204).send();
  });
}
