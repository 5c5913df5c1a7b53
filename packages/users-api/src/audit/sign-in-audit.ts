import type { RelationsPort } from '../ports.js';
import type { AuditLog } from './audit-log.js';

/**
 * A sign-in as the audit log records it: the embedded provider's `AuthEvent` (packages/idp/src/events.ts) fits this
 * shape, and so does a successful sign-in that Ory Kratos reports through its login web_hook
 * (packages/users-api/src/routes/kratos-hook-routes.ts).
 */
export interface SignInEvent {
  type: 'login.success' | 'login.failure' | 'login.locked';
  /** The sign-in method: `password`, `totp`, `lookup_secret`, … */
  method: string;
  identityId: string | null;
  /** The identifier typed at sign-in (an e-mail address), when there is one. */
  identifier?: string;
  clientAddress: string | null;
}

/**
 * Writes sign-in events to the audit log of each organisation the person belongs to (or to none when unknown),
 * reading the memberships from the tuple store at hand: the embedded one, or Ory Keto.
 */
export function signInAuditor(relations: Pick<RelationsPort, 'list'>, audit: AuditLog) {
  return async (event: SignInEvent, details?: Record<string, unknown>): Promise<void> => {
    const memberships = event.identityId
      ? (await relations.list({ namespace: 'organizations', subject_id: event.identityId })).filter(
          (t) => t.relation === 'issuer' || t.relation === 'access',
        )
      : [];
    const organisations = [...new Set(memberships.map((t) => t.object))];
    const result = event.type === 'login.success' ? 'success' : event.type === 'login.locked' ? 'locked' : 'failure';
    for (const organisationId of organisations.length > 0 ? organisations : [null]) {
      await audit.record({
        organisationId,
        actorId: event.identityId,
        actorEmail: event.identifier ?? null,
        action: `sign_in.${event.method}`,
        objectId: event.identityId,
        result,
        clientAddress: event.clientAddress,
        details,
      });
    }
  };
}
