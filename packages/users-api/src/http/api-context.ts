import type { FastifyRequest } from 'fastify';
import type { AuditEntry, AuditLog } from '../audit/audit-log.js';
import type { CatalogueSource } from '../catalogue/catalogue-source.js';
import type { InvitationStore } from '../invitations/invitation-store.js';
import type { Organisation } from '../catalogue/catalogue.js';
import type { Backend } from '../ports.js';
import { resolveCaller, type Caller } from '../users/caller.js';
import { errors } from './api-error.js';

export interface UsersApiOptions {
  publicUrl: URL;
  dashboardAllowlist: string[];
  supportEmail?: string;
  feedbackEmail?: string;
  accessibilityStatementUrl?: string;
  privacyStatementUrl?: string;
  registrationEnabled: boolean;
  invitationMs: number;
  recoveryMs: number;
  /**
   * The identity provider's idle timeout, for the portal's warning before it; absent when the provider has none
   * (Ory Kratos).
   */
  sessionIdleMs?: number;
  /**
   * The shared secret of Kratos' login web_hook (ORY_WEBHOOK_SECRET, only with IDENTITY_BACKEND=ory); without it the
   * hook's endpoint answers 404 (routes/kratos-hook-routes.ts).
   */
  kratosHookSecret?: string;
  sidebarTitle?: string;
  sidebarDescription?: string;
}

/** Counts attempts per key within a window; false once the limit is reached. */
export interface RateLimiter {
  allow(key: string, limit: number, windowMs: number): Promise<boolean>;
}

export interface ApiContext {
  backend: Backend;
  catalogue: CatalogueSource;
  audit: AuditLog;
  limiter: RateLimiter;
  invitations: InvitationStore;
  options: UsersApiOptions;
}

export interface AdminCaller extends Caller {
  activeOrg: Organisation;
}

export const clientAddressOf = (request: FastifyRequest) => request.ip;

/** The caller of a request with a live session; `aal1` allows the calls the portal's guards need before aal2. */
export async function callerOf(
  ctx: ApiContext,
  request: FastifyRequest,
  options: { aal1?: boolean } = {},
): Promise<Caller> {
  const session = await ctx.backend.identities.sessionOf(request);
  if (!session) throw errors.noSession();
  const caller = await resolveCaller(
    session,
    ctx.backend.relations,
    await ctx.catalogue.current(),
    ctx.options.dashboardAllowlist,
  );
  if (!options.aal1 && caller.aal2Required && session.aal !== 'aal2') {
    throw errors.aal2Required(new URL('/self-service/login/browser?aal=aal2', ctx.options.publicUrl).toString());
  }
  return caller;
}

/** An administrator of the active organisation; a refusal is audited. */
export async function adminOf(ctx: ApiContext, request: FastifyRequest, action: string): Promise<AdminCaller> {
  const caller = await callerOf(ctx, request);
  if (!caller.activeOrg || !caller.isAdmin) {
    await ctx.audit.record({
      ...actorOf(caller, request),
      action,
      result: 'denied',
      details: { reason: 'not an administrator' },
    });
    throw caller.activeOrg ? errors.notAdmin() : errors.noOrganisation();
  }
  return caller as AdminCaller;
}

export function actorOf(
  caller: Caller,
  request: FastifyRequest,
): Pick<AuditEntry, 'organisationId' | 'actorId' | 'actorEmail' | 'clientAddress'> {
  return {
    organisationId: caller.activeOrg?.id ?? null,
    actorId: caller.session.identity.id,
    actorEmail: caller.session.identity.traits.email,
    clientAddress: clientAddressOf(request),
  };
}
