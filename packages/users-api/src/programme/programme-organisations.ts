import { errors } from '../api-error.js';
import { auditAbout, type RequestOrigin } from '../audit/audit-about.js';
import { dataRoleObject, type Organisation } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import type { Caller } from '../users/caller.js';
import { MEMBERSHIP } from '../users/home-organisation.js';
import { createUser, type CreateUserResult } from '../users/user-service.js';

/** A programme administrator at work (`programmeAdminOf`), and where the request came from. */
export interface ProgrammeActing {
  caller: Caller;
  request: RequestOrigin;
}

/** An organisation as 'Programmabeheer' lists it: the catalogue's entry and how it is used. */
export interface OrganisationSummary {
  id: string;
  label: string;
  requiresAal2: boolean;
  /** False once deactivated: nobody is admitted to a data service through it. */
  active: boolean;
  /** With how many people hold each: what retiring it would take from them. */
  dataRoles: { id: string; label: string; holders: number }[];
  members: number;
  administrators: number;
  /** Invitations to join not yet answered, and new accounts whose invitation mail was not followed yet. */
  pendingInvitations: number;
  /** The latest sign-in of any member (ISO 8601), or null when nobody has signed in yet. */
  lastSignIn: string | null;
}

/**
 * Every organisation of the catalogue with its counts, in five reads whatever their number: the organisations' and
 * the data roles' tuples, the pending invitations, and the members' last sign-ins and accounts.
 */
export async function organisationSummaries(ctx: ApiContext): Promise<OrganisationSummary[]> {
  const [catalogue, tuples, roleTuples, invitations] = await Promise.all([
    ctx.catalogue.current(),
    ctx.backend.relations.list({ namespace: 'organizations' }),
    ctx.backend.relations.list({ namespace: 'subdivisions' }),
    ctx.invitations.pendingCounts(),
  ]);
  const holders = new Map<string, Set<string>>();
  for (const tuple of roleTuples) {
    if (!tuple.subject_id || !MEMBERSHIP.has(tuple.relation)) continue;
    holders.set(tuple.object, (holders.get(tuple.object) ?? new Set()).add(tuple.subject_id));
  }
  const members = new Map<string, Set<string>>();
  const admins = new Map<string, Set<string>>();
  for (const tuple of tuples) {
    if (!tuple.subject_id) continue;
    const into = MEMBERSHIP.has(tuple.relation) ? members : tuple.relation === 'admin' ? admins : undefined;
    if (!into) continue;
    into.set(tuple.object, (into.get(tuple.object) ?? new Set<string>()).add(tuple.subject_id));
  }
  const everyone = [...new Set([...members.values()].flatMap((set) => [...set]))];
  const [lastSignIns, people] = await Promise.all([ctx.lastSignIns.of(everyone), ctx.backend.identities.get(everyone)]);
  // A new account's invitation is followed once its address is verified (users/user-service.ts `createUser`); who
  // has signed in has followed it whatever their address says.
  const invited = new Set(
    people.filter((p) => !p.verified && p.state === 'active' && !lastSignIns.has(p.id)).map((p) => p.id),
  );
  return catalogue.organisations.map((org) => {
    const ids = [...(members.get(org.id) ?? [])];
    const signIns = ids.map((id) => lastSignIns.get(id)).filter((at): at is string => at !== undefined);
    return {
      id: org.id,
      label: org.label,
      requiresAal2: org.requiresAal2,
      active: org.active,
      dataRoles: org.dataRoles.map((role) => ({
        id: role.id,
        label: role.label,
        holders: holders.get(dataRoleObject(role.id, org.id))?.size ?? 0,
      })),
      members: ids.length,
      administrators: [...(admins.get(org.id) ?? [])].filter((id) => members.get(org.id)?.has(id)).length,
      pendingInvitations: (invitations.get(org.id) ?? 0) + ids.filter((id) => invited.has(id)).length,
      // ISO 8601 times in UTC sort as text.
      lastSignIn: signIns.sort().at(-1) ?? null,
    };
  });
}

/** One organisation as the list shows it; 404 `organisation_not_found` when there is none. */
export const summaryOf = async (ctx: ApiContext, id: string) => {
  const found = (await organisationSummaries(ctx)).find((org) => org.id === id);
  if (!found) throw errors.organisationNotFound();
  return found;
};

/** A new organisation without members or data roles; 409 `organisation_exists` when its id is taken. */
export async function addOrganisation(
  ctx: ApiContext,
  acting: ProgrammeActing,
  input: { id: string; label: string; requiresAal2: boolean },
): Promise<OrganisationSummary> {
  const org: Organisation = { ...input, active: true, dataRoles: [] };
  const details = { label: input.label, requiresAal2: input.requiresAal2 };
  await ctx.backend.atomically(async (ports) => {
    if (!(await ports.catalogue.addOrganisation(org))) throw errors.organisationExists();
    const entry = auditAbout(acting.caller, acting.request, 'programme.organisation.create', null, 'success', details);
    await ports.audit.record({ ...entry, organisationId: org.id });
  });
  ctx.catalogue.forget();
  return summaryOf(ctx, org.id);
}

/**
 * A new name or second-factor rule, or deactivated (or active again); 404 `organisation_not_found` when there is no
 * such organisation.
 */
export async function changeOrganisation(
  ctx: ApiContext,
  acting: ProgrammeActing,
  id: string,
  changes: { label?: string; requiresAal2?: boolean; active?: boolean },
): Promise<OrganisationSummary> {
  await ctx.backend.atomically(async (ports) => {
    if (!(await ports.catalogue.changeOrganisation(id, changes))) throw errors.organisationNotFound();
    const entry = auditAbout(acting.caller, acting.request, 'programme.organisation.update', null, 'success', changes);
    await ports.audit.record({ ...entry, organisationId: id });
  });
  ctx.catalogue.forget();
  return summaryOf(ctx, id);
}

/**
 * An administrator of the organisation, invited as its own administrators invite colleagues (users/user-service.ts
 * `createUser`): a new account gets the mail to choose a password, an existing one an invitation to join. The
 * programme administrator acts within that organisation, so its 'Logboek' shows who invited whom.
 */
export async function inviteAdministrator(
  ctx: ApiContext,
  acting: ProgrammeActing,
  orgId: string,
  traits: { email: string; name?: { first: string; last: string } },
): Promise<CreateUserResult> {
  const org = (await ctx.catalogue.current()).organisations.find((o) => o.id === orgId);
  if (!org) throw errors.organisationNotFound();
  const within = { ...acting.caller, activeOrg: org, isAdmin: true };
  return createUser(
    ctx,
    { caller: within, request: acting.request },
    {
      traits,
      permissions: [{ namespace: 'organizations', object: org.id, relation: 'admin' }],
    },
  );
}
