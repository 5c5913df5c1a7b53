import type { RelationTuple, TupleQuery } from '@portaal/relations';
import { dataRoleObject, type Organisation } from '../catalogue/catalogue.js';
import type { RelationsPort } from '../ports.js';
import { errors } from '../api-error.js';
import { MEMBERSHIP } from './caller.js';
import { withinOrganisation } from './user-json.js';

const isMemberVia = (tuples: RelationTuple[], orgId: string) =>
  tuples.some((t) => t.namespace === 'organizations' && t.object === orgId && MEMBERSHIP.has(t.relation));

/** The target's tuples, after checking that the target is a member of the organisation (404 otherwise). */
export async function memberTuples(
  relations: RelationsPort,
  org: Organisation,
  userId: string,
): Promise<RelationTuple[]> {
  const tuples = await relations.list({ subject_id: userId });
  if (!isMemberVia(tuples, org.id)) throw errors.notMember();
  return tuples;
}

/** Queries that remove every relation of a user on an organisation and on its data roles. */
export const removalWithin = (tuples: RelationTuple[], orgId: string): TupleQuery[] =>
  tuples
    .filter((t) => withinOrganisation(t, orgId))
    .map((t) => ({ namespace: t.namespace, object: t.object, relation: t.relation, subject_id: t.subject_id }));

export interface RequestedPermission {
  namespace?: unknown;
  object?: unknown;
  relation?: unknown;
}

/**
 * The tuples the server itself builds from what an administrator asked for: `issuer`/`admin` on the active
 * organisation and `issuer` on its catalogued data roles. Anything else refuses the whole request (403).
 */
export function tuplesFor(org: Organisation, userId: string, requested: RequestedPermission[]): RelationTuple[] {
  return permittedRelations(org, requested).map((relation) => ({ ...relation, subject_id: userId }));
}

/** The relations of `tuplesFor` before anyone is named (a new account, an invitation); refuses the same way. */
export function permittedRelations(
  org: Organisation,
  requested: RequestedPermission[],
): { namespace: string; object: string; relation: string }[] {
  const tuples: { namespace: string; object: string; relation: string }[] = [];
  for (const item of requested) {
    const { namespace, object, relation } = item;
    const orgTuple =
      namespace === 'organizations' && object === org.id && (relation === 'issuer' || relation === 'admin');
    const roleTuple =
      namespace === 'subdivisions' &&
      relation === 'issuer' &&
      org.dataRoles.some((r) => dataRoleObject(r.id, org.id) === object);
    if (!orgTuple && !roleTuple) throw errors.forbiddenTuple();
    tuples.push({ namespace: namespace as string, object: object as string, relation: relation as string });
  }
  return tuples;
}
