import type { FastifyRequest } from 'fastify';
import type { AuditEntry, AuditLog } from '../audit/audit-log.js';
import type { CatalogueSource } from '../catalogue/catalogue-source.js';
import type { InvitationStore } from '../invitations/invitation-store.js';
import type { MailThrottle } from '../mail/mail-throttle.js';
import type { Organisation } from '../catalogue/catalogue.js';
import type { Backend } from '../ports.js';
import { resolveCaller, type Caller } from '../users/caller.js';
import { secondFactorMet } from '../users/second-factor.js';
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
  /** The installation's own name and description in the header of every page (PORTAL_TITLE, PORTAL_DESCRIPTION). */
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
  /** The limits on mails to a person that administrators' requests send (mail/mail-throttle.ts). */
  mailThrottle: MailThrottle;
  invitations: InvitationStore;
  options: UsersApiOptions;
}

export interface AdminCaller extends Caller {
  activeOrg: Organisation;
}

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

/** Where a request came from, as the audit log records it; a Fastify request is one. */
export interface RequestOrigin {
  ip: string;
}

/** Whom an audit entry is about: a person (their id and e-mail address), or what of that is known. */
export type AuditTarget = { id: string; traits: { email: string } } | { id?: string; email?: string } | null;

/**
 * The audit entry of an action of the caller: who (the caller, their active organisation unless `organisationId`
 * says otherwise, the client address), what, on whom, with what result, and any details (never a secret).
 */
export function auditAbout(
  caller: Caller,
  request: RequestOrigin,
  action: string,
  target: AuditTarget,
  result: AuditEntry['result'],
  details?: Record<string, unknown>,
  organisationId: string | null = caller.activeOrg?.id ?? null,
): AuditEntry {
  const about = target && 'traits' in target ? { id: target.id, email: target.traits.email } : target;
  return {
    organisationId,
    actorId: caller.session.identity.id,
    actorEmail: caller.session.identity.traits.email,
    clientAddress: request.ip,
    action,
    objectId: about?.id ?? null,
    objectEmail: about?.email ?? null,
    result,
    ...(details ? { details } : {}),
  };
}
