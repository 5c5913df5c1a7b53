import { useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
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
  const left = useLeftScreen();
  const others = [...params].filter(([name]) => name !== 'flow');

  return {
    id: inAddress ? params.get('flow') : kept,
    /** The address without the flow id: a new value asks for a new flow. */
    rest: new URLSearchParams(others).toString(),
    returnTo: params.get('return_to') ?? undefined,
    /** Keeps the id of the flow just made or followed. */
    put(id: string) {
      if (!inAddress) return setKept(id);
      if (left()) return;
      const current = [...latest.current.params].filter(([name]) => name !== 'flow');
      latest.current.setParams(new URLSearchParams([['flow', id], ...current]), sameScreen());
    },
    /** Forgets the flow and the rest of the query, telling the person why when `notice` is given. */
    clear(notice?: string) {
      setKept(null);
      if (left()) return;
      latest.current.setParams({}, withNotice(notice));
    },
  };
}

/**
 * Whether the person has left this screen. Following a link changes the browser's address at once, but the router
 * shows the next screen in a transition, which waits for that screen's code: until then this screen is still there.
 * An answer in that gap must not write the address, or it takes the person back (a quick click on 'Wachtwoord
 * vergeten' while the sign-in flow loads). A router that keeps no browser address (the component tests' memory
 * router) differs from it from the start; there this does not apply.
 */
function useLeftScreen(): () => boolean {
  const { pathname } = useLocation();
  // Decided as the screen first renders: a later render in the gap sees the next screen's browser address already.
  const followsBrowser = useRef(window.location.pathname === pathname).current;
  const shown = useRef(pathname);
  shown.current = pathname;
  return () => followsBrowser && window.location.pathname !== shown.current;
}
