import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSameScreenNavigation, withNotice } from '../components/RestartNotice';

/**
 * Where a screen keeps the id of its flow: in the address (`?flow=`, so that a reload or a mailed link finds it again)
 * or, for a screen whose address must not carry one, only in the screen. The address keeps its other parameters
 * (`return_to`, `aal`, `herstel`, …) after the flow id.
 */
export function useFlowAddress(inAddress: boolean) {
  const [params, setParams] = useSearchParams();
  const [kept, setKept] = useState<string | null>(null);
  const sameScreen = useSameScreenNavigation();
  // Called from answers that arrive after later renders: the address as it is then, not as it was.
  const latest = useRef({ params, setParams });
  latest.current = { params, setParams };
  const others = [...params].filter(([name]) => name !== 'flow');

  return {
    id: inAddress ? params.get('flow') : kept,
    /** The address without the flow id: a new value asks for a new flow. */
    rest: new URLSearchParams(others).toString(),
    returnTo: params.get('return_to') ?? undefined,
    /** Keeps the id of the flow just made or followed. */
    put(id: string) {
      if (!inAddress) return setKept(id);
      const current = [...latest.current.params].filter(([name]) => name !== 'flow');
      latest.current.setParams(new URLSearchParams([['flow', id], ...current]), sameScreen());
    },
    /** Forgets the flow and the rest of the query, telling the person why when `notice` is given. */
    clear(notice?: string) {
      setKept(null);
      latest.current.setParams({}, withNotice(notice));
    },
  };
}
