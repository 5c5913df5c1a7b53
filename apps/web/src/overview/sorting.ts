import type { PortalUser } from '../api/users-api';

export type SortKey = 'name' | 'email' | 'type' | 'created';

export const SORT_OPTIONS: { key: SortKey; label: string }[] = [
  { key: 'name', label: 'Naam' },
  { key: 'email', label: 'E-mailadres' },
  { key: 'type', label: 'Type gebruiker' },
  { key: 'created', label: 'Account aangemaakt' },
];

export const fullName = (user: PortalUser) => `${user.traits.name.first} ${user.traits.name.last}`.trim();
const collator = new Intl.Collator('nl', { sensitivity: 'base' });

/** What sorting and search look at, worked out once per user object (a reload of the list brings new objects). */
interface Keys {
  name: string;
  admin: boolean;
  lowerName: string;
  lowerEmail: string;
}
const keysByUser = new WeakMap<PortalUser, Keys>();
function keysOf(user: PortalUser): Keys {
  let keys = keysByUser.get(user);
  if (!keys) {
    const name = fullName(user);
    keys = {
      name,
      admin: user.userType.id === 'administrator',
      lowerName: name.toLocaleLowerCase('nl'),
      lowerEmail: user.traits.email.toLocaleLowerCase('nl'),
    };
    keysByUser.set(user, keys);
  }
  return keys;
}

const orders = new WeakMap<PortalUser[], Map<SortKey, PortalUser[]>>();

/**
 * Sorts a copy; 'type' puts administrators first, then by name (the default). The keys are looked up once per user
 * rather than per comparison, and each order of a list is kept, so choosing it again costs nothing.
 */
export function sortUsers(users: PortalUser[], key: SortKey): PortalUser[] {
  let kept = orders.get(users);
  if (!kept) {
    kept = new Map();
    orders.set(users, kept);
  }
  let sorted = kept.get(key);
  if (!sorted) {
    sorted = sortCopy(users, key);
    kept.set(key, sorted);
  }
  return sorted;
}

function sortCopy(users: PortalUser[], key: SortKey): PortalUser[] {
  const rows = users.map((user) => ({ user, keys: keysOf(user) }));
  type Row = (typeof rows)[number];
  const byName = (a: Row, b: Row) => collator.compare(a.keys.name, b.keys.name);
  const compare: Record<SortKey, (a: Row, b: Row) => number> = {
    name: byName,
    email: (a, b) => collator.compare(a.user.traits.email, b.user.traits.email),
    type: (a, b) => Number(b.keys.admin) - Number(a.keys.admin) || byName(a, b),
    // ISO 8601 times from the server, all in one form: their text order is their time order.
    created: (a, b) => (a.user.created_at < b.user.created_at ? 1 : a.user.created_at > b.user.created_at ? -1 : 0),
  };
  return rows.sort(compare[key]).map((row) => row.user);
}

/**
 * Sorts `users` in every order while the browser has nothing else to do, one order at a time, so that a later
 * choice in 'Sorteer op' finds its order ready. Returns a function that stops what has not started.
 */
export function sortWhenIdle(users: PortalUser[]): () => void {
  const idle = window.requestIdleCallback ?? ((work: () => void) => window.setTimeout(work, 1));
  const cancel = window.cancelIdleCallback ?? window.clearTimeout;
  const keys = SORT_OPTIONS.map((option) => option.key);
  let handle = 0;
  const next = () => {
    const key = keys.shift();
    if (!key) return;
    sortUsers(users, key);
    handle = idle(next);
  };
  handle = idle(next);
  return () => cancel(handle);
}

/** Case-insensitive search on name or e-mail; keeps the order of `users`. */
export function searchUsers(users: PortalUser[], query: string): PortalUser[] {
  const wanted = query.trim().toLocaleLowerCase('nl');
  if (!wanted) return users;
  return users.filter((user) => {
    const keys = keysOf(user);
    return keys.lowerName.includes(wanted) || keys.lowerEmail.includes(wanted);
  });
}

export const longDate = (iso: string) =>
  new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));

/** '23 november 2026 om 19:45', for a moment within the day that matters (the end of a lock). */
export const longDateTime = (iso: string) =>
  new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
