import type { CredentialRecord } from '../../identities/identity-repository.js';

/**
 * One key in a `webauthn` or `passkey` credential's config, in Kratos' shape (identity/credentials_webauthn.go):
 * binary values in standard base64, as Go encodes `[]byte`.
 */
export interface StoredWebAuthnKey {
  id: string;
  public_key: string;
  attestation_type: string;
  authenticator: { aaguid: string; sign_count: number; clone_warning: boolean };
  display_name: string;
  added_at: string;
  is_passwordless: boolean;
  flags?: { user_present: boolean; user_verified: boolean; backup_eligible: boolean; backup_state: boolean };
  transport?: string[];
}

/** The config of a `webauthn` or `passkey` credential: its keys and the user handle the authenticators hold. */
export interface WebAuthnCredentialConfig {
  credentials: StoredWebAuthnKey[];
  user_handle: string;
}

export type KeyKind = 'webauthn' | 'passkey';

/** What the key helpers read of a credential. */
type KeyCredential = Pick<CredentialRecord, 'type' | 'config'>;

export const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');
export const fromBase64 = (text: string): Buffer => Buffer.from(text, 'base64');
export const base64ToBase64Url = (text: string): string => fromBase64(text).toString('base64url');
const base64UrlToBase64 = (text: string): string => Buffer.from(text, 'base64url').toString('base64');

/** Kratos names a key in forms by its id in lower-case hex (`fmt.Sprintf("%x", id)`). */
export const hexIdOf = (key: StoredWebAuthnKey): string => fromBase64(key.id).toString('hex');

function isKey(value: unknown): value is StoredWebAuthnKey {
  if (!value || typeof value !== 'object') return false;
  const key = value as Record<string, unknown>;
  return typeof key.id === 'string' && typeof key.public_key === 'string';
}

/** The config of the identity's credential of `kind`, empty when there is none or it is not readable. */
export function keyConfigOf(credentials: KeyCredential[], kind: KeyKind): WebAuthnCredentialConfig {
  const config = credentials.find((c) => c.type === kind)?.config;
  const keys = Array.isArray(config?.credentials) ? config.credentials.filter(isKey) : [];
  const userHandle = typeof config?.user_handle === 'string' ? config.user_handle : '';
  return {
    credentials: keys.map((key) => ({
      ...key,
      authenticator: {
        aaguid: key.authenticator?.aaguid ?? 'AAAAAAAAAAAAAAAAAAAAAA==',
        sign_count: Number(key.authenticator?.sign_count ?? 0),
        clone_warning: key.authenticator?.clone_warning === true,
      },
      display_name: typeof key.display_name === 'string' ? key.display_name : '',
      is_passwordless: key.is_passwordless === true,
    })),
    user_handle: userHandle,
  };
}

/** Security keys for the second factor: the `webauthn` keys not registered for passwordless sign-in. */
export const secondFactorKeys = (credentials: KeyCredential[]): StoredWebAuthnKey[] =>
  keyConfigOf(credentials, 'webauthn').credentials.filter((key) => !key.is_passwordless);

/**
 * How many ways to sign in without a second factor the identity has, as Kratos' `CountActiveFirstFactorCredentials`
 * counts them: a password, each passkey, each `webauthn` key registered for passwordless sign-in.
 */
export function countFirstFactors(credentials: CredentialRecord[]): number {
  const password = credentials.some((c) => c.type === 'password' && typeof c.config.hashed_password === 'string');
  const passkeys = keyConfigOf(credentials, 'passkey').credentials.length;
  const passwordless = keyConfigOf(credentials, 'webauthn').credentials.filter((k) => k.is_passwordless).length;
  return (password ? 1 : 0) + passkeys + passwordless;
}

/** The key with this credential id (base64url, as the browser sends `rawId`) in the config, if any. */
export function findKey(config: WebAuthnCredentialConfig, rawId: string): StoredWebAuthnKey | undefined {
  const wanted = base64UrlToBase64(rawId);
  return config.credentials.find((key) => key.id === wanted);
}
