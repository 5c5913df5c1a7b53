import type { IdpContext } from './context.js';

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

export type AuthEventListener = (event: AuthEvent) => Promise<void> | void;

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
