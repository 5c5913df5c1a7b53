/**
 * The orders of the administrators' overview ('Sorteer op'): Naam, E-mailadres, Type gebruiker (the default),
 * Account aangemaakt and Laatst ingelogd (issue 30).
 */
export const SORT_KEYS = ['name', 'email', 'type', 'created', 'last_sign_in'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** What sorting and search look at in an entry of the list (users/user-json.ts). */
export interface Listed {
  id: string;
  traits: { email: string; name: { first: string; last: string } };
  created_at: string;
  userType: { id: string };
  /** A member's last sign-in, null for never; absent for an invited person (users/user-json.ts). */
  lastSignInAt?: string | null;
}

// Node's collator, not the database's: the same order on SQLite, PostgreSQL and Ory, and the one the browser used.
const collator = new Intl.Collator('nl', { sensitivity: 'base' });

interface Row<T> {
  entry: T;
  name: string;
  admin: boolean;
}

const rowOf = <T extends Listed>(entry: T): Row<T> => ({
  entry,
  name: `${entry.traits.name.first} ${entry.traits.name.last}`.trim(),
  admin: entry.userType.id === 'administrator',
});

const byName = <T extends Listed>(a: Row<T>, b: Row<T>) => collator.compare(a.name, b.name);
// ISO 8601 times, all in one form: their text order is their time order. Newest first; none after every time.
const newestFirst = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '') === (b ?? '') ? 0 : !a ? 1 : !b ? -1 : a < b ? 1 : -1;
const COMPARE: Record<SortKey, <T extends Listed>(a: Row<T>, b: Row<T>) => number> = {
  name: byName,
  email: (a, b) => collator.compare(a.entry.traits.email, b.entry.traits.email),
  type: (a, b) => Number(b.admin) - Number(a.admin) || byName(a, b),
  created: (a, b) => newestFirst(a.entry.created_at, b.entry.created_at),
  // Who signed in most recently first; those who never did (and invited people) after them, by name.
  last_sign_in: (a, b) => newestFirst(a.entry.lastSignInAt, b.entry.lastSignInAt) || byName(a, b),
};

// Equal keys by id: one order however the entries came, so an order kept and patched (users/kept-keys.ts) is the
// order a sort of the whole list gives.
const byId = <T extends Listed>(a: Row<T>, b: Row<T>) =>
  a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0;
const compareBy =
  (key: SortKey) =>
  <T extends Listed>(a: Row<T>, b: Row<T>) =>
    COMPARE[key](a, b) || byId(a, b);

/**
 * A sorted copy: 'type' puts administrators first, then by name; names and addresses in Dutch order, case and
 * accents aside; 'created' newest first; 'last_sign_in' the most recent first, then who never signed in, by name.
 * Equal keys go by id.
 */
export function sortEntries<T extends Listed>(entries: readonly T[], key: SortKey): T[] {
  return entries
    .map(rowOf)
    .sort(compareBy(key))
    .map((row) => row.entry);
}

/**
 * Entries given in the order `sortEntries(…, 'name')` makes, in the order it makes for 'last_sign_in': a stable sort
 * by the time alone keeps equal times in name order, without comparing names again.
 */
export function sortByLastSignIn<T extends Listed>(byName: readonly T[]): T[] {
  return [...byName].sort((a, b) => newestFirst(a.lastSignInAt, b.lastSignInAt));
}

/**
 * An order made by `sortEntries` without the entries whose ids are in `removed`, and with `added` placed where
 * `sortEntries` would put them: what a kept order becomes when a few people change.
 */
export function placeEntries<T extends Listed>(
  order: readonly T[],
  key: SortKey,
  removed: ReadonlySet<string>,
  added: readonly T[],
): T[] {
  const placed = order.filter((entry) => !removed.has(entry.id));
  const compare = compareBy(key);
  for (const entry of added) {
    const row = rowOf(entry);
    let low = 0;
    let high = placed.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(rowOf(placed[middle]!), row) <= 0) low = middle + 1;
      else high = middle;
    }
    placed.splice(low, 0, entry);
  }
  return placed;
}

/** The lower-cased name and address an entry is searched by. */
export const searchTextOf = (entry: Listed) => ({
  name: `${entry.traits.name.first} ${entry.traits.name.last}`.trim().toLocaleLowerCase('nl'),
  email: entry.traits.email.toLocaleLowerCase('nl'),
});

/** The search of 'Zoek gebruiker': a part of the name or the address, case aside; blank finds everyone. */
export function searchEntries<T extends Listed>(
  entries: readonly T[],
  query: string,
  textOf: (entry: T) => { name: string; email: string } = searchTextOf,
): readonly T[] {
  const wanted = query.trim().toLocaleLowerCase('nl');
  if (!wanted) return entries;
  return entries.filter((entry) => {
    const text = textOf(entry);
    return text.name.includes(wanted) || text.email.includes(wanted);
  });
}
