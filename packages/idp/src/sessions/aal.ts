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

/** Computed from the credentials on every request, never cached (Kratos GHSA-wc43-73w7-x2f5). */
export function availableAal(credentials: CredentialRecord[]): Aal {
  const second = credentials.some(
    (c) =>
      c.type === 'totp' ||
      (c.type === 'lookup_secret' && Array.isArray(c.config.recovery_codes) && c.config.recovery_codes.length > 0),
  );
  return second || secondFactorKeys(credentials).length > 0 ? 'aal2' : 'aal1';
}
