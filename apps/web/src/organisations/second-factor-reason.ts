import { useState } from 'react';
import { useLocation } from 'react-router';
import type { CurrentUser } from '../api/users-api';

/** What the sidebar layout hands the second-factor gate when it sends a person there (react-router's state). */
interface GateState {
  secondFactorFor?: string[];
  /** A programme administrator always needs one, whatever their organisations ask (or without any). */
  programmeAdmin?: boolean;
}

const list = new Intl.ListFormat('nl', { style: 'long', type: 'conjunction' });

/**
 * The state for the gate: the organisations of the person that ask for a second factor, or their role as programme
 * administrator (the reason to be there).
 */
export const gateState = (user: CurrentUser): GateState => ({
  secondFactorFor: (user.organisations ?? []).filter((o) => o.requiresAal2).map((o) => o.label),
  ...(user.isProgrammeAdmin ? { programmeAdmin: true } : {}),
});

/**
 * At the gate where a person must link a second factor: why, when the sidebar layout sent them there (after
 * accepting an invitation of an organisation that asks for one, say). Kept from the arrival on, since the screen
 * changes its address when its flow starts.
 */
export function useSecondFactorReason(): string | undefined {
  const location = useLocation();
  const [reason] = useState(() => {
    const state = location.state as GateState | null;
    if (state?.programmeAdmin) return 'Als programmabeheerder log je altijd in met een tweede factor.';
    const labels = state?.secondFactorFor ?? [];
    if (labels.length === 0) return undefined;
    return labels.length === 1
      ? `De organisatie ${labels[0]} vraagt om tweestapsverificatie.`
      : `De organisaties ${list.format(labels)} vragen om tweestapsverificatie.`;
  });
  return reason;
}
