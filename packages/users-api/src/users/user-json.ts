import type { RelationTuple } from '@portaal/relations';
import { dataRoleObject, type Organisation } from '../catalogue/catalogue.js';
import type { Invitation } from '../invitations/invitation-store.js';
import type { UserIdentity } from '../ports.js';
import { factorKinds } from './second-factor.js';

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
 * It runs once per person of a list of ten thousand, so it allocates nothing but the answer.
 */
export function permissionsWithin(tuples: RelationTuple[], org: Organisation): Permission[] {
  const roleSuffix = `_${org.id}`;
  const permissions: Permission[] = [];
  for (const tuple of tuples) {
    const { namespace, object, relation } = tuple;
    const ofOrganisation = namespace === 'organizations' && object === org.id;
    if (!ofOrganisation && !(namespace === 'subdivisions' && object.endsWith(roleSuffix))) continue;
    if (permissions.some((p) => p.relation === relation && p.object === object && p.namespace === namespace)) continue;
    if (ofOrganisation) {
      permissions.push({ ...tuple, label: org.label });
      continue;
    }
    const viaAccess = (t: RelationTuple) => t.relation === 'access' && t.namespace === namespace && t.object === object;
    if (relation === 'issuer' && tuples.some(viaAccess)) continue;
    const roleId = object.slice(0, -roleSuffix.length);
    permissions.push({ ...tuple, label: roleLabels(org).get(object) ?? roleId, roleId });
  }
  return permissions;
}

// The data roles' labels by tuple object, made once per catalogue organisation.
const labelsOf = new WeakMap<Organisation, Map<string, string>>();
function roleLabels(org: Organisation): Map<string, string> {
  let labels = labelsOf.get(org);
  if (!labels) {
    labels = new Map(org.dataRoles.map((r) => [dataRoleObject(r.id, org.id), r.label]));
    labelsOf.set(org, labels);
  }
  return labels;
}

// Shared by every entry of a list: answers are serialised, never changed.
const ADMINISTRATOR = Object.freeze({ id: 'administrator', label: 'Beheerder' });
const ANALYST = Object.freeze({ id: 'analyst', label: 'Medewerker' });

/**
 * A person as the Users API shows them within one organisation: the identity without the organisation record (the
 * server's bookkeeping; `home` and whoami's fields say what a client needs), their permissions and user type.
 * Built field by field, in the order clients have always seen them.
 */
function entryOf(
  identity: UserIdentity,
  shown: { credentials: string[]; lockedUntil?: string },
  permissions: Permission[],
) {
  const administrator = permissions.some((p) => p.namespace === 'organizations' && p.relation === 'admin');
  return {
    id: identity.id,
    schema_id: identity.schema_id,
    state: identity.state,
    traits: identity.traits,
    created_at: identity.created_at,
    credentials: shown.credentials,
    /** The kinds of factor the person has (app, backup codes, security key, passkey), for the overview. */
    factors: factorKinds(shown.credentials),
    verified: identity.verified,
    ...(shown.lockedUntil ? { lockedUntil: shown.lockedUntil } : {}),
    permissions,
    userType: administrator ? ADMINISTRATOR : ANALYST,
  };
}

export function userJson(identity: UserIdentity, tuples: RelationTuple[], org: Organisation) {
  return entryOf(identity, identity, permissionsWithin(tuples, org));
}

const NOTHING_SHOWN = Object.freeze({ credentials: Object.freeze([]) as unknown as string[], lockedUntil: undefined });

/**
 * A member as an administrator sees them: `home` says whether this organisation is the person's home; a guest
 * organisation sees neither credentials nor the lock, both the home organisation's business (docs/organisations.md).
 * Every organisation of the person sees when they last signed in to the portal (`null`: never).
 */
export function memberJson(
  identity: UserIdentity,
  tuples: RelationTuple[],
  org: Organisation,
  lastSignInAt: string | null,
) {
  const home = (identity.organisationRecord.home ?? org.id) === org.id;
  return {
    ...entryOf(identity, home ? identity : NOTHING_SHOWN, permissionsWithin(tuples, org)),
    home,
    lastSignInAt,
  };
}

/**
 * A person invited to join: the invited permissions and the invitation to withdraw. The inviting organisation is not
 * their home, so, as for a guest, it sees neither credentials nor the lock (docs/organisations.md).
 */
export function invitedJson(identity: UserIdentity, invitation: Invitation, org: Organisation) {
  const tuples = invitation.relations.map((t) => ({ ...t, subject_id: identity.id }));
  return {
    ...entryOf(identity, NOTHING_SHOWN, permissionsWithin(tuples, org)),
    home: false,
    invitation: { id: invitation.id, expiresAt: invitation.expiresAt },
  };
}
