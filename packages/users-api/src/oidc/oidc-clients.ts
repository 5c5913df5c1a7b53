import { createHash, timingSafeEqual } from 'node:crypto';
import type { ClientMetadata } from 'oidc-provider';
import type { Catalogue, DataService } from '../catalogue/catalogue.js';

/** A client id's SHA-256 (hex) of its secret, when one is configured; the secrets themselves are never kept. */
export type ClientSecretHashes = (clientId: string) => string | undefined;

/**
 * A client secret is a long random string (at least 32 characters, checked where it is read), so one round of
 * SHA-256 keeps it as safe as a slow password hash would, and checking it costs nothing.
 */
export const hashClientSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * Whether `presented` is one of the secrets whose hashes `stored` holds (comma-separated: a secret configured in the
 * environment and those generated in 'Programmabeheer', a rotated one during its overlap), each in constant time.
 */
export function secretMatches(stored: string, presented: string): boolean {
  const actual = Buffer.from(hashClientSecret(presented), 'hex');
  return stored.split(',').some((hash) => {
    const expected = Buffer.from(hash, 'hex');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  });
}

export const serviceOfClient = (catalogue: Catalogue, clientId: string): DataService | undefined =>
  catalogue.services.find((s) => s.oidc?.clientId === clientId);

/**
 * node-oidc-provider's client metadata for a data service with an `oidc` block. A confidential client's `client_secret`
 * holds the hashes of its valid secrets (`generated`: those of `oidc_client_secrets`): the provider compares through
 * `secretMatches` (oidc-provider.ts), and no algorithm that would key on the secret (HS256, symmetric encryption) is
 * enabled. A confidential client without a configured secret cannot sign in.
 */
export function clientMetadata(
  service: DataService,
  secrets: ClientSecretHashes,
  generated: string[] = [],
): ClientMetadata | undefined {
  const settings = service.oidc;
  if (!settings) return undefined;
  const common: ClientMetadata = {
    client_id: settings.clientId,
    client_name: service.name,
    redirect_uris: settings.redirectUris,
    post_logout_redirect_uris: settings.postLogoutRedirectUris,
    response_types: ['code'],
    require_auth_time: true,
    ...(settings.backchannelLogoutUri
      ? { backchannel_logout_uri: settings.backchannelLogoutUri, backchannel_logout_session_required: true }
      : {}),
  };
  if (settings.type === 'public') {
    return { ...common, token_endpoint_auth_method: 'none', grant_types: ['authorization_code'] };
  }
  const hashes = [secrets(settings.clientId), ...generated].filter((hash): hash is string => Boolean(hash));
  if (hashes.length === 0) return undefined;
  return {
    ...common,
    client_secret: hashes.join(','),
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['authorization_code', 'refresh_token'],
  };
}
