import { useEffect, useSyncExternalStore } from 'react';
import { usersApi, type PortalConfig } from './users-api';

interface ConfigState {
  data?: PortalConfig;
  isPending: boolean;
}

// Read once per page load and shared by every screen. Not a TanStack query: the sign-in screen shows the
// configuration (support address, registration link) and stays within its JavaScript budget without TanStack
// (apps/web/README.md#size).
let state: ConfigState = { isPending: true };
let requested = false;
// Bumped when the configuration is forgotten, so that an answer to an earlier request is dropped.
let generation = 0;
const listeners = new Set<() => void>();

function settle(next: ConfigState) {
  state = next;
  for (const listener of listeners) listener();
}

function load() {
  if (requested) return;
  requested = true;
  const asked = generation;
  usersApi<PortalConfig>('/config').then(
    (data) => asked === generation && settle({ data, isPending: false }),
    () => {
      if (asked !== generation) return;
      // Without the configuration every text reads well; the next screen that needs it asks again.
      requested = false;
      settle({ isPending: false });
    },
  );
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The portal's configuration from `GET /api/config`: `data` once answered, `isPending` until then. */
export function usePortalConfig(): ConfigState {
  useEffect(load, []);
  return useSyncExternalStore(subscribe, () => state);
}

/** For tests: the next screen reads the configuration afresh. */
export function forgetPortalConfig() {
  state = { isPending: true };
  requested = false;
  generation += 1;
}
