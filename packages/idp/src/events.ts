import type { Kysely } from 'kysely';
import type { IdpContext } from './context.js';
import type { Database } from './db/schema.js';

/** Sign-in events for the audit log (docs/architecture.md#the-audit-log): who, how and from where, never a secret. */
export interface SignInEvent {
  type: 'login.success' | 'login.failure' | 'login.locked';
  method: 'password' | 'totp' | 'lookup_secret' | 'webauthn' | 'passkey';
  identityId: string | null;
  /** The identifier typed at sign-in (an e-mail address), when there is one. */
  identifier?: string;
  clientAddress: string;
  /**
   * A passkey or security key signed in, but its counter did not rise: a copy of the key may be in use
   * (docs/security.md#53-passkeys-and-security-keys). The sign-in itself succeeded, as in Kratos.
   */
  cloneWarning?: boolean;
}

/**
 * A way to sign in added, removed or (a password) replaced in the settings: its kind and, for a key, the name it was
 * given; never the password, secret, code or key.
 */
export interface CredentialChangeEvent {
  type: 'credential.added' | 'credential.removed' | 'credential.changed';
  method: 'password' | 'totp' | 'lookup_secret' | 'webauthn' | 'passkey';
  identityId: string;
  displayName?: string;
  clientAddress: string;
}

export type AuthEvent = SignInEvent | CredentialChangeEvent;

/**
 * Writes an event to the audit log. A credential event comes with the transaction of its change (`trx`): the listener
 * writes through it, so the change and its entry commit together or not at all. It must not write on the database
 * itself meanwhile: on SQLite the transaction holds the one connection, and such a write would wait for it forever.
 */
export type AuthEventListener = (event: AuthEvent, trx?: Kysely<Database>) => Promise<void> | void;

/**
 * Hands an event to the listener and waits for it, so that a sign-in is answered only once it is in the audit log: a
 * crash in between loses the session's token with the entry, never the entry alone. A failing listener is logged and
 * never breaks the sign-in.
 */
export async function emitAuthEvent(ctx: IdpContext, event: AuthEvent): Promise<void> {
  if (!ctx.events) return;
  try {
    await ctx.events(event);
  } catch (error) {
    ctx.log.error({ err: error, event: event.type }, 'audit listener failed');
  }
}

/**
 * Hands a credential change to the listener inside the change's own transaction. Unlike a sign-in's, a failing write
 * is not passed over: it rolls the change back, so no way to sign in comes, goes or changes without its entry.
 */
export async function recordCredentialChange(
  ctx: IdpContext,
  trx: Kysely<Database>,
  event: CredentialChangeEvent,
): Promise<void> {
  await ctx.events?.(event, trx);
}
