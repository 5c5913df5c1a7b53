import type { CredentialRecord } from '../identities/identity-repository.js';
import { secondFactorKeys } from '../credentials/webauthn/credential-config.js';

export interface AuthenticationMethod {
  method: string;
  aal: 'aal1' | 'aal2';
  completed_at: string;
}

export type Aal = 'aal0' | 'aal1' | 'aal2';

const FIRST_FACTORS = new Set(['password', 'code', 'code_recovery', 'link_recovery']);

/** As in Kratos, aal2 needs at least one aal1 and one aal2 method (docs/kratos-compatibility.md#assurance-levels). */
export function sessionAal(methods: AuthenticationMethod[]): Aal {
  if (methods.length === 0) return 'aal0';
  const hasFirst = methods.some((m) => m.aal === 'aal1' || FIRST_FACTORS.has(m.method));
  const hasSecond = methods.some((m) => m.aal === 'aal2');
  return hasFirst && hasSecond ? 'aal2' : 'aal1';
}

type CredentialLike = Pick<CredentialRecord, 'type' | 'config'>;

/**
 * What makes a credential of each type a second factor, the one rule for every aal2 gate: an authenticator app,
 * backup codes (used ones count, as in Kratos) or a security key, that is a `webauthn` key not registered for
 * passwordless sign-in. A passkey and a passwordless `webauthn` key are first factors (aal1), as in Kratos
 * (docs/kratos-compatibility.md#assurance-levels).
 */
const SECOND_FACTOR_RULES = {
  totp: () => true,
  lookup_secret: (config: Record<string, unknown>) =>
    Array.isArray(config.recovery_codes) && config.recovery_codes.length > 0,
  webauthn: (config: Record<string, unknown>) => secondFactorKeys([{ type: 'webauthn', config }]).length > 0,
} satisfies Record<string, (config: Record<string, unknown>) => boolean>;

/** The credential types that may be a second factor: the session lookup reads only these (session-lookup.ts). */
export const SECOND_FACTOR_TYPES = Object.keys(SECOND_FACTOR_RULES) as (keyof typeof SECOND_FACTOR_RULES)[];

const isSecondFactor = (credential: CredentialLike): boolean =>
  Object.hasOwn(SECOND_FACTOR_RULES, credential.type) &&
  SECOND_FACTOR_RULES[credential.type as keyof typeof SECOND_FACTOR_RULES](credential.config);

/** Computed from the credentials on every request, never cached (Kratos GHSA-wc43-73w7-x2f5). */
export function availableAal(credentials: CredentialLike[]): Aal {
  return credentials.some(isSecondFactor) ? 'aal2' : 'aal1';
}
