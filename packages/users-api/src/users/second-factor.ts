import type { CallerSession } from '../ports.js';

/**
 * The portal's second-factor policy (docs/organisations.md#second-factor-policy). The identity provider's
 * `authenticator_assurance_level` stays as Kratos computes it, where a passkey alone is aal1; the Users API decides
 * from the session's authentication methods instead: a sign-in that included a second factor (aal2), a passkey (the
 * provider requires user verification for passkeys, so it is possession plus a PIN or biometric) or a security key
 * (`webauthn`) meets an organisation's requirement.
 */
const PHISHING_RESISTANT_METHODS: ReadonlySet<string> = new Set(['passkey', 'webauthn']);

export function secondFactorMet(session: Pick<CallerSession, 'aal' | 'methods'>): boolean {
  return session.aal === 'aal2' || session.methods.some((method) => PHISHING_RESISTANT_METHODS.has(method));
}

/** The kinds of factor an administrator sees in the overview, from the names of a person's credentials. */
export type FactorKind = 'app' | 'backup_codes' | 'security_key' | 'passkey';

const KIND_OF: Record<string, FactorKind> = {
  totp: 'app',
  lookup_secret: 'backup_codes',
  webauthn: 'security_key',
  passkey: 'passkey',
};

/** The credential types that are a kind of factor the overview shows: every kind but the password. */
export const FACTOR_TYPES: readonly string[] = Object.keys(KIND_OF);

/** In a fixed order: app, backup codes, security key, passkey. */
export function factorKinds(credentials: readonly string[]): FactorKind[] {
  const order: FactorKind[] = ['app', 'backup_codes', 'security_key', 'passkey'];
  const present = new Set(credentials.flatMap((type) => KIND_OF[type] ?? []));
  return order.filter((kind) => present.has(kind));
}

/**
 * Credentials the provider asks for in the second step (`/login?aal=aal2`): an authenticator app, backup codes or a
 * security key. A passkey is not asked there (it is a first factor in Kratos): a person whose only strong factor is a
 * passkey signs in again with it.
 */
export const hasSecondStep = (credentials: readonly string[]): boolean =>
  credentials.some((type) => type === 'totp' || type === 'lookup_secret' || type === 'webauthn');

/** Credentials that meet the policy once used: anything of the second step, or a passkey. */
export const hasSecondFactor = (credentials: readonly string[]): boolean =>
  hasSecondStep(credentials) || credentials.includes('passkey');

/** The credentials 'Reset 2FA' removes: Kratos' admin API deletes second-factor credentials only, never passkeys. */
export const RESET_CREDENTIALS = ['totp', 'lookup_secret', 'webauthn'] as const;

/**
 * The `acr` of the portal's ID tokens: `aal2` when the sign-in meets the second-factor policy, so that a service that
 * asks for aal2 gets what the portal itself accepts; the provider's own level is left as it is.
 */
export const acrOf = (session: Pick<CallerSession, 'aal' | 'methods'>): string =>
  secondFactorMet(session) ? 'aal2' : session.aal;

/**
 * The `amr` of the portal's ID tokens (RFC 8176): `pwd` for the password, `otp` for the app or a backup code, `hwk`
 * for a security key or passkey and `user` for the user verification a passkey requires.
 */
export function amrOf(session: Pick<CallerSession, 'aal' | 'methods'>): string[] {
  const { methods } = session;
  const amr: string[] = [];
  if (methods.includes('password') || (!methods.includes('passkey') && !methods.includes('webauthn'))) amr.push('pwd');
  if (session.aal === 'aal2' && methods.some((m) => m === 'totp' || m === 'lookup_secret')) amr.push('otp');
  if (methods.includes('webauthn') || methods.includes('passkey')) amr.push('hwk');
  if (methods.includes('passkey')) amr.push('user');
  return amr;
}
