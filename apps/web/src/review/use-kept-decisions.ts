import { useCallback, useEffect, useState } from 'react';
import type { ReviewDecision } from './review-api';

type Decisions = Record<string, ReviewDecision>;

const storageKey = (organisationId: string) => `dvp-toegangsreview-${organisationId}`;
const pairKey = (userId: string, roleId: string) => `${userId} ${roleId}`;

function read(organisationId: string): Decisions {
  if (!organisationId) return {};
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(storageKey(organisationId)) ?? '{}') as unknown;
    return kept && typeof kept === 'object' ? (kept as Decisions) : {};
  } catch {
    return {};
  }
}

/**
 * The choices of a review in progress, kept in the tab's session storage per organisation, so that a reload or a
 * look at another screen loses none of them; forgotten once the review is finished.
 */
export function useKeptDecisions(organisationId: string) {
  const [decisions, setDecisions] = useState<Decisions>(() => read(organisationId));
  useEffect(() => setDecisions(read(organisationId)), [organisationId]);
  const keep = useCallback(
    (next: Decisions) => {
      setDecisions(next);
      if (!organisationId) return;
      try {
        window.sessionStorage.setItem(storageKey(organisationId), JSON.stringify(next));
      } catch {
        // Storage full or switched off: the choices stay on the page.
      }
    },
    [organisationId],
  );
  return {
    decisionOf: (userId: string, roleId: string): ReviewDecision | undefined => decisions[pairKey(userId, roleId)],
    decide: (userId: string, roleId: string, decision: ReviewDecision) =>
      keep({ ...decisions, [pairKey(userId, roleId)]: decision }),
    keepUndecided: (pairs: [string, string][]) =>
      keep({ ...decisions, ...Object.fromEntries(pairs.map(([userId, roleId]) => [pairKey(userId, roleId), 'keep'])) }),
    forget: () => {
      setDecisions({});
      if (organisationId) window.sessionStorage.removeItem(storageKey(organisationId));
    },
  };
}
