// The screens after sign-in keep the server's answers in a TanStack Query cache (api/ServerData.tsx), which the
// sign-in screen does not load (apps/web/README.md#size). After a sign-in those answers belong to someone else or
// are out of date; this is how the sign-in screens drop them without importing the cache.
let forget: () => Promise<void> = async () => {};

/** Called by the cache once it exists. */
export function onForgetCachedAnswers(dropAll: () => Promise<void>) {
  forget = dropAll;
}

/** Drops every cached server answer, so that each screen fetches it again; nothing when none is cached. */
export const forgetCachedAnswers = () => forget();
