import type { RelationTuple } from '@portaal/relations';
import { dataRoleObject, type Organisation } from '../catalogue/catalogue.js';
import type { Invitation } from '../invitations/invitation-store.js';
import type { UserIdentity } from '../ports.js';

export interface Permission extends RelationTuple {
  label: string;
  roleId?: string;
}

/** Whether a tuple concerns the organisation itself or one of its data roles (`roleId_orgId`). */
export const withinOrganisation = (tuple: RelationTuple, orgId: string) =>
  (tuple.namespace === 'organizations' && tuple.object === orgId) ||
  (tuple.namespace === 'subdivisions' && tuple.object.endsWith(`_${orgId}`));

/**
 * The permissions a user shows within one organisation, labelled from the catalogue: one per relation and object,
 * and a data role's `issuer` left out where the same role also has `access`, so the portal shows each role once.
 */
export function permissionsWithin(tuples: RelationTuple[], org: Organisation): Permission[] {
  const seen = new Set<string>();
  const relevant = tuples.filter((t) => withinOrganisation(t, org.id));
  const hasAccess = new Set(relevant.filter((t) => t.relation === 'access').map((t) => `${t.namespace}:${t.object}`));
  const permissions: Permission[] = [];
  for (const tuple of relevant) {
    const key = `${tuple.relation}|${tuple.namespace}:${tuple.object}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (
      tuple.relation === 'issuer' &&
      tuple.namespace === 'subdivisions' &&
      hasAccess.has(`${tuple.namespace}:${tuple.object}`)
    )
      continue;
    if (tuple.namespace === 'organizations') {
      permissions.push({ ...tuple, label: org.label });
    } else {
      const roleId = tuple.object.slice(0, -(org.id.length + 1));
      const role = org.dataRoles.find((r) => dataRoleObject(r.id, org.id) === tuple.object);
      permissions.push({ ...tuple, label: role?.label ?? roleId, roleId });
    }
  }
  return permissions;
}

export function userJson(identity: UserIdentity, tuples: RelationTuple[], org: Organisation) {
  // The organisation record is the server's bookkeeping; `home` and whoami's fields say what a client needs.
  const { organisationRecord: _record, ...user } = identity;
  const permissions = permissionsWithin(tuples, org);
  const administrator = permissions.some((p) => p.namespace === 'organizations' && p.relation === 'admin');
  return {
    ...user,
    permissions,
    userType: administrator ? { id: 'administrator', label: 'Beheerder' } : { id: 'analyst', label: 'Medewerker' },
  };
}

/**
 * A member as an administrator sees them: `home` says whether this organisation is the person's home; a guest
 * organisation sees no credentials (docs/organisations.md).
 */
export function memberJson(identity: UserIdentity, tuples: RelationTuple[], org: Organisation) {
  const home = (identity.organisationRecord.home ?? org.id) === org.id;
  // A guest organisation sees neither credentials nor the lock: both are the home organisation's business.
  const { lockedUntil, ...user } = identity;
  const shown = home ? { ...user, ...(lockedUntil ? { lockedUntil } : {}) } : { ...user, credentials: [] };
  return { ...userJson(shown, tuples, org), home };
}

/** A person invited to join: the invited permissions, no credentials, and the invitation to withdraw. */
export function invitedJson(identity: UserIdentity, invitation: Invitation, org: Organisation) {
  const tuples = invitation.relations.map((t) => ({ ...t, subject_id: identity.id }));
  return {
    ...userJson({ ...identity, credentials: [] }, tuples, org),
    home: false,
    invitation: { id: invitation.id, expiresAt: invitation.expiresAt },
  };
}
