import { usersApi } from '../api/users-api';

// The programme administrators of 'Programmabeheer' (`/api/programme/administrators`).

/** Someone who holds the programme administrator's role. */
export interface ProgrammeAdministrator {
  id: string;
  email: string;
  name: { first: string; last: string };
}

/** Everyone who holds the role, by name. */
export const programmeAdministrators = (signal?: AbortSignal) =>
  usersApi<{ administrators: ProgrammeAdministrator[] }>('/programme/administrators', { signal });

/**
 * Makes the holder of an account a programme administrator; 404 `identity_not_found` without such an account, 409
 * `programme_admin_exists` when they are one already.
 */
export const grantProgrammeRole = (email: string) =>
  usersApi<ProgrammeAdministrator>('/programme/administrators', { method: 'POST', body: { email } });

/** Withdraws the role; 409 `last_programme_admin` for the last one. */
export const withdrawProgrammeRole = (id: string) =>
  usersApi<void>(`/programme/administrators/${encodeURIComponent(id)}`, { method: 'DELETE' });
