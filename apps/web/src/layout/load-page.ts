import { createContext, useContext } from 'react';

/**
 * Leaves the app for a page the browser loads from the server: another site, the provider's sign-in at a data service,
 * or the sign-in screen anew after logging out (`replace`: the page left is not kept in the history).
 */
function loadPage(address: string, { replace = false } = {}): void {
  if (replace) window.location.replace(address);
  else window.location.assign(address);
}

/** How the screens leave the app: `loadPage`, or in component tests, where jsdom loads no pages, a recorder. */
export const PageLoader = createContext(loadPage);

export const usePageLoader = () => useContext(PageLoader);
