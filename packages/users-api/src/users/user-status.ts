/** The statuses the overview filters on ('Status'), as `GET /users?status=` and `/users.csv?status=` take them. */
export const STATUS_KEYS = ['active', 'blocked', 'locked', 'invited', 'no_second_factor'] as const;
export type StatusKey = (typeof STATUS_KEYS)[number];

/** What the status of an entry of the list looks at (users/user-json.ts). */
export interface WithStatus {
  state: string;
  lockedUntil?: string;
  factors: readonly string[];
  home?: boolean;
  invitation?: unknown;
}

/**
 * Whether an entry has this status, as the organisation that lists it sees the person: an invited person only
 * 'invited'; a lock and the kinds of second factor only where the organisation is the person's home, as the entries
 * show them (docs/organisations.md), so a guest organisation finds nobody of its guests without a second factor.
 */
export function hasStatus(entry: WithStatus, status: StatusKey): boolean {
  if (entry.invitation !== undefined) return status === 'invited';
  switch (status) {
    case 'invited':
      return false;
    case 'blocked':
      return entry.state === 'inactive';
    case 'locked':
      return entry.lockedUntil !== undefined;
    case 'no_second_factor':
      return entry.home === true && entry.factors.length === 0;
    case 'active':
      return entry.state === 'active' && entry.lockedUntil === undefined;
  }
}
