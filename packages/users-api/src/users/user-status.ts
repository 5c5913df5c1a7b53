/** The statuses the overview filters on ('Status'), as `GET /users?status=` and `/users.csv?status=` take them. */
export const STATUS_KEYS = ['active', 'blocked', 'locked', 'invited', 'no_second_factor'] as const;
export type StatusKey = (typeof STATUS_KEYS)[number];

/**
 * What a status is decided on, as the organisation that lists the person sees them: a lock and the kinds of factor
 * only where it is the person's home (docs/organisations.md), so `locked` and `anyFactor` are false elsewhere.
 */
export interface StatusFacts {
  invited: boolean;
  state: string;
  home: boolean;
  locked: boolean;
  anyFactor: boolean;
}

/** The facts of an entry of the list (users/user-json.ts), which shows a lock and factors to the home only. */
export const factsOf = (entry: {
  state: string;
  lockedUntil?: string;
  factors: readonly string[];
  home?: boolean;
  invitation?: unknown;
}): StatusFacts => ({
  invited: entry.invitation !== undefined,
  state: entry.state,
  home: entry.home === true,
  locked: entry.lockedUntil !== undefined,
  anyFactor: entry.factors.length > 0,
});

/**
 * Whether a person has this status: an invited person only 'invited'; 'no_second_factor' only a member of their home
 * organisation, so a guest organisation finds none of its guests without a factor (it cannot see them).
 */
export function hasStatus(facts: StatusFacts, status: StatusKey): boolean {
  if (facts.invited) return status === 'invited';
  switch (status) {
    case 'invited':
      return false;
    case 'blocked':
      return facts.state === 'inactive';
    case 'locked':
      return facts.locked;
    case 'no_second_factor':
      return facts.home && !facts.anyFactor;
    case 'active':
      return facts.state === 'active' && !facts.locked;
  }
}
