import type { FactorKind, PortalUser } from '../api/users-api';

const FACTOR_NAMES: Record<FactorKind, string> = {
  app: 'authenticator-app',
  backup_codes: 'back-upcodes',
  security_key: 'beveiligingssleutel',
  passkey: 'passkey',
};

/**
 * The Dutch names of the kinds of second factor a person has ('authenticator-app', 'beveiligingssleutel', …), or
 * undefined where the organisation does not see them: only the home organisation does, and not of an invitation.
 */
export function factorNamesOf(user: PortalUser): string[] | undefined {
  if (!user.factors || user.invitation || user.home === false) return undefined;
  return factorKindNames(user.factors);
}

/** 'authenticator-app', 'beveiligingssleutel', … for each kind, in the order given. */
export const factorKindNames = (kinds: readonly FactorKind[]) => kinds.map((kind) => FACTOR_NAMES[kind]);
