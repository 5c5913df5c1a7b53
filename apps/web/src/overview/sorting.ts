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

/** Sorts a copy; 'type' puts administrators first, then by name (the default). */
export function sortUsers(users: PortalUser[], key: SortKey): PortalUser[] {
  const byName = (a: PortalUser, b: PortalUser) => collator.compare(fullName(a), fullName(b));
  const compare: Record<SortKey, (a: PortalUser, b: PortalUser) => number> = {
    name: byName,
    email: (a, b) => collator.compare(a.traits.email, b.traits.email),
    type: (a, b) =>
      Number(b.userType.id === 'administrator') - Number(a.userType.id === 'administrator') || byName(a, b),
    created: (a, b) => b.created_at.localeCompare(a.created_at),
  };
  return [...users].sort(compare[key]);
}

/** Case-insensitive search on name or e-mail. */
export function searchUsers(users: PortalUser[], query: string): PortalUser[] {
  const wanted = query.trim().toLocaleLowerCase('nl');
  if (!wanted) return users;
  return users.filter(
    (u) =>
      fullName(u).toLocaleLowerCase('nl').includes(wanted) || u.traits.email.toLocaleLowerCase('nl').includes(wanted),
  );
}

export const longDate = (iso: string) =>
  new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));

/** '23 november 2026 om 19:45', for a moment within the day that matters (the end of a lock). */
export const longDateTime = (iso: string) =>
  new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
