import type { RelationsPort } from '../ports.js';
import type { AuditLog } from './audit-log.js';
import type { LastSignIns } from './last-sign-ins.js';

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
  /** A passkey or security key whose counter did not rise: the sign-in passed, but a copy may be in use. */
  cloneWarning?: boolean;
}

/**
 * A security key or passkey added or removed in the account settings, as the identity provider reports it through
 * the same listener as sign-ins: never the key itself, only its kind and the name the person gave it.
 */
export interface CredentialEvent {
  type: 'credential.added' | 'credential.removed';
  /** `webauthn` (a security key) or `passkey`. */
  method: string;
  identityId: string;
  /** The name the person gave the key, when there is one. */
  displayName?: string;
  clientAddress: string | null;
}

const CREDENTIAL_ACTIONS: Record<string, string> = { webauthn: 'security_key', passkey: 'passkey' };

/** The audit action of a credential event: `security_key.add`, `passkey.remove`, … */
function credentialAction(event: CredentialEvent): string {
  const kind = CREDENTIAL_ACTIONS[event.method] ?? event.method;
  return `${kind}.${event.type === 'credential.added' ? 'add' : 'remove'}`;
}

const isCredentialEvent = (event: SignInEvent | CredentialEvent): event is CredentialEvent =>
  event.type === 'credential.added' || event.type === 'credential.removed';

/**
 * Writes sign-in events (and security keys or passkeys added or removed) to the audit log of each organisation the
 * person belongs to (or to none when unknown), reading the memberships from the tuple store at hand: the embedded
 * one, or Ory Keto. A passed step is also the person's last sign-in.
 */
export function signInAuditor(relations: Pick<RelationsPort, 'list'>, audit: AuditLog, lastSignIns: LastSignIns) {
  return async (event: SignInEvent | CredentialEvent, details?: Record<string, unknown>): Promise<void> => {
    const memberships = event.identityId
      ? (await relations.list({ namespace: 'organizations', subject_id: event.identityId })).filter(
          (t) => t.relation === 'issuer' || t.relation === 'access',
        )
      : [];
    const organisations = [...new Set(memberships.map((t) => t.object))];
    for (const organisationId of organisations.length > 0 ? organisations : [null]) {
      if (isCredentialEvent(event)) {
        await audit.record({
          organisationId,
          actorId: event.identityId,
          actorEmail: null,
          action: credentialAction(event),
          objectId: event.identityId,
          result: 'success',
          clientAddress: event.clientAddress,
          details: { ...details, ...(event.displayName ? { display_name: event.displayName } : {}) },
        });
        continue;
      }
      const result = event.type === 'login.success' ? 'success' : event.type === 'login.locked' ? 'locked' : 'failure';
      await audit.record({
        organisationId,
        actorId: event.identityId,
        actorEmail: event.identifier ?? null,
        action: `sign_in.${event.method}`,
        objectId: event.identityId,
        result,
        clientAddress: event.clientAddress,
        details: event.cloneWarning ? { ...details, clone_warning: true } : details,
      });
    }
    if (event.type === 'login.success' && event.identityId) await lastSignIns.record(event.identityId, new Date());
  };
}
