// A 'return_to' in the address of a portal page is kept, with the hash, for after sign-in. A person who is
// not signed in is sent to /login without it; the sign-in screen then asks the identity provider for a flow with
// the kept address, so that the provider's allow-list decides, and forgets it at once (also when it is refused).
const KEY = 'dvp-return-to';

export const keepReturnTo = (returnTo: string, hash: string) => window.localStorage.setItem(KEY, `${returnTo}${hash}`);

/**
 * A sign-in at a data service waits at the portal's OpenID Connect provider (`/oidc/interaction/…`, a page of the
 * server). Only such a same-origin address is taken, as a path, so that no other site can be named here.
 */
export function serviceSignInPath(address: string | null | undefined): string | undefined {
  if (!address) return undefined;
  const target = new URL(address, window.location.origin);
  if (target.origin !== window.location.origin || !/^\/oidc\/interaction\/[\w-]+$/.test(target.pathname))
    return undefined;
  return target.pathname;
}

export function takeKeptReturnTo(): string | undefined {
  const kept = window.localStorage.getItem(KEY) ?? undefined;
  window.localStorage.removeItem(KEY);
  return kept;
}
