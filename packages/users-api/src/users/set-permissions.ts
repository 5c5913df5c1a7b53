import type { RelationTuple } from '@portaal/relations';
import { errors } from '../api-error.js';
import { auditAbout } from '../audit/audit-about.js';
import { dataRoleObject } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import { relationName, relationNames } from './invitation-mails.js';
import { memberTuples, type RequestedPermission, tuplesFor } from './membership.js';
import { permissionsWithin } from './user-json.js';
import type { Acting } from './user-service.js';

/**
 * The edit dialog's data roles and administrator option in one call (`PUT /users/:id/permissions`): the member's data
 * roles of the active organisation and its administrator relation become exactly `requested`. Only what differs is
 * written, the additions and the removals in one patch with their audit entries, so a failure leaves everything as
 * it was; the specification's remove-then-add of single relations could stop halfway and leave the person without
 * roles. Anything outside the organisation refuses the whole request (403 `forbidden_permission`), a membership
 * cannot be set here (400), and one's own administrator relation stays as it is. Answers the member's permissions
 * within the organisation.
 */
export async function setPermissions(
  ctx: ApiContext,
  acting: Acting,
  userId: string,
  requested: RequestedPermission[],
) {
  const { backend } = ctx;
  const { caller, request } = acting;
  const org = caller.activeOrg;
  const current = await memberTuples(backend.relations, org, userId);
  const wanted = tuplesFor(org, userId, requested);
  if (wanted.some((tuple) => tuple.namespace === 'organizations' && tuple.relation !== 'admin'))
    throw errors.invalid(
      'A membership is not set with PUT /users/:id/permissions.',
      'Een lidmaatschap zet je niet met de datarollen.',
    );
  const roles = new Set(org.dataRoles.map((role) => dataRoleObject(role.id, org.id)));
  const self = userId === caller.session.identity.id;
  const set = (tuple: RelationTuple) =>
    tuple.subject_id === userId &&
    (tuple.namespace === 'organizations'
      ? tuple.object === org.id && tuple.relation === 'admin' && !self
      : tuple.namespace === 'subdivisions' && tuple.relation === 'issuer' && roles.has(tuple.object));
  const held = new Map(current.filter(set).map((tuple) => [relationName(tuple), tuple]));
  const chosen = new Map(wanted.filter(set).map((tuple) => [relationName(tuple), tuple]));
  const insert = [...chosen].filter(([key]) => !held.has(key)).map(([, tuple]) => tuple);
  const remove = [...held].filter(([key]) => !chosen.has(key)).map(([, tuple]) => tuple);
  if (insert.length > 0 || remove.length > 0) {
    const target = { id: userId };
    await backend.atomically(async (ports) => {
      await ports.relations.patch({ insert, delete: remove });
      if (insert.length > 0) {
        const details = { relations: relationNames(insert) };
        await ports.audit.record(auditAbout(caller, request, 'permissions.add', target, 'success', details));
      }
      for (const tuple of remove) {
        const details = { relation: relationName(tuple) };
        await ports.audit.record(auditAbout(caller, request, 'permissions.remove', target, 'success', details));
      }
    });
  }
  return permissionsWithin(await backend.relations.list({ subject_id: userId }), org);
}
