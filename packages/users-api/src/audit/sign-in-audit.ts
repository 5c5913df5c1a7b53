import type { Kysely } from 'kysely';
import { fixedStatement, runFixed } from '@portaal/idp';
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
 * A way to sign in added, removed or (a password) replaced in the account settings, as the identity provider reports
 * it through the same listener as sign-ins: never the password, secret, codes or key, only its kind and, for a key,
 * the name the person gave it.
 */
export interface CredentialEvent {
  type: 'credential.added' | 'credential.removed' | 'credential.changed';
  /** `password`, `totp`, `lookup_secret`, `webauthn` (a security key) or `passkey`. */
  method: string;
  identityId: string;
  /** The name the person gave the key, when there is one. */
  displayName?: string;
  clientAddress: string | null;
}

const CREDENTIAL_ACTIONS: Record<string, string> = { webauthn: 'security_key', passkey: 'passkey' };

const CHANGES: Record<CredentialEvent['type'], string> = {
  'credential.added': 'add',
  'credential.removed': 'remove',
  'credential.changed': 'change',
};

/** The audit action of a credential event: `security_key.add`, `totp.remove`, `password.change`, … */
const credentialAction = (event: CredentialEvent): string =>
  `${CREDENTIAL_ACTIONS[event.method] ?? event.method}.${CHANGES[event.type]}`;

const isCredentialEvent = (event: SignInEvent | CredentialEvent): event is CredentialEvent => event.type in CHANGES;

/** The organisations a person belongs to (as issuer or by consent), each once. */
export type OrganisationsOf = (identityId: string) => Promise<string[]>;

/** The memberships as the tuple store at hand lists them: Ory Keto's, or the embedded one. */
export const organisationsInTuples =
  (relations: Pick<RelationsPort, 'list'>): OrganisationsOf =>
  async (identityId) => {
    const tuples = await relations.list({ namespace: 'organizations', subject_id: identityId });
    return [...new Set(tuples.filter((t) => t.relation === 'issuer' || t.relation === 'access').map((t) => t.object))];
  };

// Every sign-in on the embedded backend asks this: a fixed statement on the shared database's tuples
// (docs/architecture.md#fixed-statements-on-the-hot-paths).
const ORGANISATIONS = fixedStatement(
  'portaal_organisations_of',
  `select distinct object from relation_tuples
   where namespace = 'organizations' and subject_id = ? and subject_set_namespace = ''
     and relation in ('issuer', 'access')
   order by object`,
);

/** The memberships read from the embedded tuple store's table. */
export const organisationsInDatabase =
  <DB>(db: Kysely<DB>): OrganisationsOf =>
  async (identityId) =>
    (await runFixed<{ object: string }>(db, ORGANISATIONS, [identityId])).map((row) => row.object);

/**
 * Writes sign-in events (and security keys or passkeys added or removed) to the audit log of each organisation the
 * person belongs to (or to none when unknown). A passed step is also the person's last sign-in.
 */
export function signInAuditor(organisationsOf: OrganisationsOf, audit: AuditLog, lastSignIns: LastSignIns) {
  return async (event: SignInEvent | CredentialEvent, details?: Record<string, unknown>): Promise<void> => {
    const organisations = event.identityId ? await organisationsOf(event.identityId) : [];
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
