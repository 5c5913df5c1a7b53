import type { PortalUser, UsersSort, UsersStatus } from '../api/users-api';

/** The orders of 'Sorteer op'; the Users API sorts (its `users/user-order.ts`). */
export type SortKey = UsersSort;

export const SORT_OPTIONS: { key: SortKey; label: string }[] = [
  { key: 'name', label: 'Naam' },
  { key: 'email', label: 'E-mailadres' },
  { key: 'type', label: 'Type gebruiker' },
  { key: 'created', label: 'Account aangemaakt' },
  { key: 'last_sign_in', label: 'Laatst ingelogd' },
];

/** The choices of 'Status': every status, or one that the Users API filters on. */
export const STATUS_OPTIONS: { key: UsersStatus | ''; label: string }[] = [
  { key: '', label: 'Alle statussen' },
  { key: 'active', label: 'Actief' },
  { key: 'blocked', label: 'Geblokkeerd' },
  { key: 'locked', label: 'Vergrendeld' },
  { key: 'invited', label: 'Uitgenodigd' },
  { key: 'no_second_factor', label: 'Zonder tweede factor' },
];

export const fullName = (user: PortalUser) => `${user.traits.name.first} ${user.traits.name.last}`.trim();
