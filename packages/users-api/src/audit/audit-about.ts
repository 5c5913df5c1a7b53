import type { Caller } from '../users/caller.js';
import type { AuditEntry } from './audit-log.js';

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
