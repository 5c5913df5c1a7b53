import type { Clock } from '../../clock.js';
import {
  deleteCredential,
  findCredential,
  saveCredential,
  type Transaction,
} from '../../identities/identity-repository.js';
import { keyConfigOf } from './credential-config.js';

/**
 * Removes an identity's security keys (the second-factor `webauthn` keys) and keeps its keys for passwordless
 * sign-in, as Kratos' admin API does (docs/kratos-compatibility.md#deleting-credentials). True when there were any.
 * A reset of the second factor must call this beside removing the authenticator app and the backup codes.
 */
export async function removeSecurityKeys(db: Transaction, clock: Clock, identityId: string): Promise<boolean> {
  const credential = await findCredential(db, identityId, 'webauthn');
  if (!credential) return false;
  const config = keyConfigOf([credential], 'webauthn');
  const kept = config.credentials.filter((key) => key.is_passwordless);
  if (kept.length === 0) return deleteCredential(db, clock, identityId, 'webauthn');
  await saveCredential(db, clock, identityId, 'webauthn', { ...config, credentials: kept }, credential.identifiers);
  return true;
}
