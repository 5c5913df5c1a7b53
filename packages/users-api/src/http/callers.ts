import type { FastifyRequest } from 'fastify';
import { errors } from '../api-error.js';
import { auditAbout } from '../audit/audit-about.js';
import type { AdminCaller, ApiContext } from '../context.js';
import { resolveCaller, type Caller } from '../users/caller.js';
import { secondFactorMet } from '../users/second-factor.js';

/**
 * The caller of a request with a live session; `aal1` allows the calls the portal's guards need before the second
 * factor, which `secondFactorMet` decides (a passkey or security key counts, docs/organisations.md).
 */
export async function callerOf(
  ctx: ApiContext,
  request: FastifyRequest,
  options: { aal1?: boolean } = {},
): Promise<Caller> {
  const session = await ctx.backend.identities.sessionOf(request.headers);
  if (!session) throw errors.noSession();
  const caller = await resolveCaller(
    session,
    ctx.backend.relations,
    await ctx.catalogue.current(),
    ctx.options.dashboardAllowlist,
  );
  if (!options.aal1 && caller.aal2Required && !secondFactorMet(session)) {
    throw errors.aal2Required(new URL('/self-service/login/browser?aal=aal2', ctx.options.publicUrl).toString());
  }
  return caller;
}

/** An administrator of the active organisation; a refusal is audited. */
export async function adminOf(ctx: ApiContext, request: FastifyRequest, action: string): Promise<AdminCaller> {
  const caller = await callerOf(ctx, request);
  if (!caller.activeOrg || !caller.isAdmin) {
    await ctx.audit.record(auditAbout(caller, request, action, null, 'denied', { reason: 'not an administrator' }));
    throw caller.activeOrg ? errors.notAdmin() : errors.noOrganisation();
  }
  return caller as AdminCaller;
}

/**
 * A programme administrator (programme/programme-role.ts), always with a second factor (`aal2Required` holds for
 * them); a refusal is audited.
 */
export async function programmeAdminOf(ctx: ApiContext, request: FastifyRequest, action: string): Promise<Caller> {
  const caller = await callerOf(ctx, request);
  if (!caller.isProgrammeAdmin) {
    const reason = { reason: 'not a programme administrator' };
    await ctx.audit.record(auditAbout(caller, request, action, null, 'denied', reason));
    throw errors.notProgrammeAdmin();
  }
  return caller;
}
