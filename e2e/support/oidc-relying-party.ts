import * as client from 'openid-client';
import type { Browser } from './ory.js';

// A data service signing people in through the portal's OpenID Connect provider, with openid-client as relying party:
// discovery, an authorization request with PKCE, and a person's browser (cookies, no JavaScript) following the
// portal's redirects until they lead back to the service.

/** The provider at `${portalUrl}/oidc` as a confidential client sees it (secret in the Authorization header). */
export const discoverClient = (portalUrl: string, clientId: string, secret: string) =>
  client.discovery(new URL(`${portalUrl}/oidc`), clientId, undefined, client.ClientSecretBasic(secret), {
    execute: [client.allowInsecureRequests],
  });

/**
 * An authorization request (code flow, PKCE with S256, a state, scope `openid email`) back to `redirectUri`; `extra`
 * adds or overrides parameters (`prompt`, `max_age`). Answers the address and what the token request needs.
 */
export async function authorizationRequest(
  config: client.Configuration,
  redirectUri: string,
  extra: Record<string, string> = {},
) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { url, verifier, state };
}

/**
 * Follows the browser's redirects from `start` while they stay on the portal and short of its sign-in screen; answers
 * where they left it: the service's redirect URI (never requested), or `/login` when the portal asks for a sign-in.
 */
export async function followWhileOnPortal(portalUrl: string, browser: Browser, start: string): Promise<URL> {
  let url = new URL(start);
  for (let hop = 0; hop < 12 && url.origin === portalUrl && url.pathname !== '/login'; hop += 1) {
    const response = await browser.fetch(url.href, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location) throw new Error(`${url.pathname} answered ${response.status} without a redirect`);
    url = new URL(location, url);
  }
  return url;
}
