import { generateKeyPairSync } from 'node:crypto';

let shared: string | undefined;

/**
 * An OIDC_JWKS with one RSA key, made once per test worker. Generating a 2048-bit key costs a portal about 0.35 s of
 * CPU at every first start; test portals take this one instead, unless a test asks for generated keys (OIDC_JWKS '').
 */
export function testSigningKeys(): string {
  if (shared) return shared;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  shared = JSON.stringify({
    keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }],
  });
  return shared;
}
