import type { RelationTuple } from '@portaal/relations';
import { dataRoleObject, type Organisation } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import { errors } from '../api-error.js';
import { expireInvitations } from '../invitations/expire-invitations.js';
import type { UserIdentity } from '../ports.js';
import { MEMBERSHIP } from '../users/caller.js';
import { emailSchema, HIDDEN_CHARACTERS, personName } from '../users/user-input.js';
import type { FileRow } from './import-file.js';

/**
 * What a row will do: make an account (`create`), invite someone whose account is another organisation's
 * (`invite`), give a member more data roles or administration (`add`), nothing (`unchanged`: everything asked for
 * is there, or an invitation is open), or nothing because the row is wrong (`refused`, with the reason).
 */
export type ImportPlan = 'create' | 'invite' | 'add' | 'unchanged' | 'refused';

/** A row of the file as the import will carry it out; `reason` in Dutch for a refused one. */
export interface PlannedRow {
  line: number;
  email: string;
  first: string;
  last: string;
  /** The organisation's data roles by id, in the catalogue's order. */
  dataRoles: string[];
  admin: boolean;
  plan: ImportPlan;
  reason?: string;
  /** The existing account the row is about, if any. */
  identityId?: string;
}

const INVALID_EMAIL = errors.invalidEmail().message;

/** The relations a row asks for in the organisation: membership, its data roles, administration. */
export const relationsAsked = (org: Organisation, row: Pick<PlannedRow, 'dataRoles' | 'admin'>) => [
  { namespace: 'organizations', object: org.id, relation: 'issuer' },
  ...row.dataRoles.map((roleId) => ({
    namespace: 'subdivisions',
    object: dataRoleObject(roleId, org.id),
    relation: 'issuer',
  })),
  ...(row.admin ? [{ namespace: 'organizations', object: org.id, relation: 'admin' }] : []),
];

/** What the organisation's people hold in it now, by person: `namespace:object#relation` keys. */
async function heldInOrganisation(ctx: ApiContext, org: Organisation): Promise<Map<string, Set<string>>> {
  const objects = [
    { namespace: 'organizations', object: org.id },
    ...org.dataRoles.map((role) => ({ namespace: 'subdivisions', object: dataRoleObject(role.id, org.id) })),
  ];
  const lists = await Promise.all(objects.map((query) => ctx.backend.relations.list(query)));
  const held = new Map<string, Set<string>>();
  for (const tuple of lists.flat()) {
    if (!tuple.subject_id) continue;
    held.set(tuple.subject_id, addKeys(held.get(tuple.subject_id) ?? new Set<string>(), [tuple]));
  }
  return held;
}

/** Adds the tuples' keys; `issuer` and `access` are both membership: either holds what the import asks as `issuer`. */
function addKeys(keys: Set<string>, tuples: RelationTuple[]): Set<string> {
  for (const tuple of tuples) {
    keys.add(keyOf(tuple));
    if (MEMBERSHIP.has(tuple.relation)) keys.add(keyOf({ ...tuple, relation: 'issuer' }));
  }
  return keys;
}

const keyOf = (tuple: Pick<RelationTuple, 'namespace' | 'object' | 'relation'>) =>
  `${tuple.namespace}:${tuple.object}#${tuple.relation}`;

/** The organisation's data roles by id and by label, in lower case. */
const rolesByName = (org: Organisation) =>
  new Map(
    org.dataRoles.flatMap((role) => [
      [role.id.toLowerCase(), role.id],
      [role.label.toLowerCase(), role.id],
    ]),
  );

/** The row's own content: a valid address, known data roles, 'ja' or 'nee'; else the Dutch reason. */
function checkRow(
  org: Organisation,
  roles: Map<string, string>,
  row: FileRow,
): Omit<PlannedRow, 'plan' | 'line'> | { reason: string } {
  const email = emailSchema.safeParse(row.email);
  if (!email.success) return { reason: INVALID_EMAIL };
  const unknown = row.dataRoles.find((role) => !roles.has(role.toLowerCase()));
  if (unknown !== undefined) return { reason: `Datarol '${unknown}' bestaat niet in ${org.label}.` };
  if (!['', 'ja', 'nee'].includes(row.admin)) return { reason: "Vul bij Beheerder 'ja' of 'nee' in, of niets." };
  const asked = new Set(row.dataRoles.map((role) => roles.get(role.toLowerCase())!));
  return {
    email: email.data,
    first: row.first,
    last: row.last,
    dataRoles: org.dataRoles.filter((role) => asked.has(role.id)).map((role) => role.id),
    admin: row.admin === 'ja',
  };
}

/** The names of a new account, as the new-user dialog checks them; undefined when they pass. */
function nameRefusal(first: string, last: string): string | undefined {
  for (const name of [first, last]) {
    const checked = personName.safeParse(name);
    if (!checked.success)
      return checked.error.issues[0]?.message === HIDDEN_CHARACTERS
        ? errors.hiddenCharactersInName().message
        : errors.invalidName().message;
  }
  return undefined;
}

/**
 * Plans every row of a file against the organisation as it is now, with the new-user dialog's rules: the address,
 * the names of a new account, data roles by label or id, 'ja' or 'nee' for administration. An address twice in the
 * file is refused the second time. Existing accounts only gain what they lack; nothing is ever taken away.
 */
export async function planImport(ctx: ApiContext, org: Organisation, rows: FileRow[]): Promise<PlannedRow[]> {
  const [held, invited] = await Promise.all([
    heldInOrganisation(ctx, org),
    expireInvitations(ctx).then(() => ctx.invitations.ofOrganisation(org.id)),
  ]);
  const invitedIds = new Set(invited.map((invitation) => invitation.identityId));
  const roles = rolesByName(org);
  const firstLine = new Map<string, number>();
  const planned: PlannedRow[] = [];
  for (const row of rows) {
    const base = { line: row.line, email: row.email, first: row.first, last: row.last, dataRoles: [], admin: false };
    const checked = checkRow(org, roles, row);
    if ('reason' in checked) {
      planned.push({ ...base, plan: 'refused', reason: checked.reason });
      continue;
    }
    const earlier = firstLine.get(checked.email);
    if (earlier !== undefined) {
      planned.push({ ...base, ...checked, plan: 'refused', reason: `Dit e-mailadres staat ook op regel ${earlier}.` });
      continue;
    }
    firstLine.set(checked.email, row.line);
    const existing = await ctx.backend.identities.findByEmail(checked.email);
    planned.push({ line: row.line, ...checked, ...planFor(org, checked, existing, held, invitedIds) });
  }
  return planned;
}

function planFor(
  org: Organisation,
  row: Pick<PlannedRow, 'first' | 'last' | 'dataRoles' | 'admin'>,
  existing: UserIdentity | undefined,
  held: Map<string, Set<string>>,
  invitedIds: Set<string>,
): Pick<PlannedRow, 'plan' | 'reason' | 'identityId'> {
  if (!existing) {
    const reason = nameRefusal(row.first, row.last);
    return reason ? { plan: 'refused', reason } : { plan: 'create' };
  }
  const identityId = existing.id;
  const has = held.get(identityId);
  if (!has?.has(keyOf({ namespace: 'organizations', object: org.id, relation: 'issuer' })))
    return { plan: invitedIds.has(identityId) ? 'unchanged' : 'invite', identityId };
  const lacking = relationsAsked(org, row).filter((tuple) => !has.has(keyOf(tuple)));
  return { plan: lacking.length > 0 ? 'add' : 'unchanged', identityId };
}

/**
 * A planned row again, against the organisation as it is when the import reaches it: someone may have made the
 * account, invited the person or given the role in between. A row refused for its content stays refused.
 */
export async function replanRow(
  ctx: ApiContext,
  org: Organisation,
  row: PlannedRow,
): Promise<Pick<PlannedRow, 'plan' | 'reason' | 'identityId'>> {
  if (row.plan === 'refused') return { plan: 'refused', reason: row.reason };
  const existing = await ctx.backend.identities.findByEmail(row.email);
  if (!existing) return planFor(org, row, undefined, new Map(), new Set());
  const [tuples, invitations] = await Promise.all([
    ctx.backend.relations.list({ subject_id: existing.id }),
    ctx.invitations.ofIdentity(existing.id),
  ]);
  const held = new Map([[existing.id, addKeys(new Set(), tuples)]]);
  const invited = new Set(invitations.filter((i) => i.organisationId === org.id).map((i) => i.identityId));
  return planFor(org, row, existing, held, invited);
}
