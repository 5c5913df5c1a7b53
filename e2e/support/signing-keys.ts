import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

let shared: Promise<string> | undefined;

/**
 * An OIDC_JWKS with one RSA key, made once per test worker. Generating a 2048-bit key costs a portal about 0.35 s of
 * CPU at every first start; test portals take this one instead, unless a test asks for generated keys (OIDC_JWKS '').
 * Asynchronous, as the portal's own keys: `generateKeyPairSync` can hang (docs/architecture.md, "Single sign-on for
 * the data services").
 */
export function testSigningKeys(): Promise<string> {
  shared ??= promisify(generateKeyPair)('rsa', { modulusLength: 2048 }).then(({ privateKey }) =>
    JSON.stringify({ keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] }),
  );
  return shared;
}
