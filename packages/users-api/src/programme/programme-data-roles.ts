import { errors } from '../api-error.js';
import { auditAbout } from '../audit/audit-about.js';
import { dataRoleObject } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import type { ProgrammeActing } from './programme-organisations.js';

/** The data role's audit entry, in the log of its organisation. */
const entryOf = (acting: ProgrammeActing, action: string, orgId: string, details: Record<string, unknown>) => ({
  ...auditAbout(acting.caller, acting.request, action, null, 'success', details),
  organisationId: orgId,
});

/** A new data role of an organisation; 404 without the organisation, 409 `data_role_exists` when the id is taken. */
export async function addDataRole(
  ctx: ApiContext,
  acting: ProgrammeActing,
  orgId: string,
  role: { id: string; label: string },
) {
  await ctx.backend.atomically(async (ports) => {
    const outcome = await ports.catalogue.addDataRole(orgId, role);
    if (outcome === 'no_organisation') throw errors.organisationNotFound();
    if (outcome === 'taken') throw errors.dataRoleExists();
    await ports.audit.record(entryOf(acting, 'programme.data_role.add', orgId, { role: role.id, label: role.label }));
  });
  ctx.catalogue.forget();
}

export async function renameDataRole(
  ctx: ApiContext,
  acting: ProgrammeActing,
  orgId: string,
  roleId: string,
  label: string,
) {
  await ctx.backend.atomically(async (ports) => {
    if (!(await ports.catalogue.renameDataRole(orgId, roleId, label))) throw errors.dataRoleNotFound();
    await ports.audit.record(entryOf(acting, 'programme.data_role.rename', orgId, { role: roleId, label }));
  });
  ctx.catalogue.forget();
}

/**
 * Retires a data role: out of the catalogue and every service's access rule, and taken from everyone who holds it,
 * so it ends their access at the services it admitted them to at the next check. Answers how many lost it. Pending
 * invitations that offer it are accepted without it (users/organisation-service.ts).
 */
export async function retireDataRole(
  ctx: ApiContext,
  acting: ProgrammeActing,
  orgId: string,
  roleId: string,
): Promise<{ holders: number }> {
  const object = dataRoleObject(roleId, orgId);
  const org = (await ctx.catalogue.current()).organisations.find((o) => o.id === orgId);
  if (!org?.dataRoles.some((role) => role.id === roleId)) throw errors.dataRoleNotFound();
  const held = await ctx.backend.relations.list({ namespace: 'subdivisions', object });
  const holders = new Set(held.flatMap((t) => (t.subject_id ? [t.subject_id] : []))).size;
  await ctx.backend.atomically(async (ports) => {
    // The holders first: on Ory, where nothing here is one transaction, a failure after it leaves a role that can be
    // retired again, never one that is gone from the catalogue but still held.
    await ports.relations.patch({ delete: [{ namespace: 'subdivisions', object }] });
    if (!(await ports.catalogue.retireDataRole(orgId, roleId))) throw errors.dataRoleNotFound();
    await ports.audit.record(entryOf(acting, 'programme.data_role.retire', orgId, { role: roleId, holders }));
  });
  ctx.catalogue.forget();
  return { holders };
}
