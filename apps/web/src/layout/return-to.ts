// A 'return_to' in the address of a portal page is kept, with the hash, for after sign-in. A person who is
// not signed in is sent to /login without it; the sign-in screen then asks the identity provider for a flow with
// the kept address, so that the provider's allow-list decides, and forgets it at once (also when it is refused).
const KEY = 'dvp-return-to';

export const keepReturnTo = (returnTo: string, hash: string) => window.localStorage.setItem(KEY, `${returnTo}${hash}`);

export function takeKeptReturnTo(): string | undefined {
  const kept = window.localStorage.getItem(KEY) ?? undefined;
  window.localStorage.removeItem(KEY);
  return kept;
}
