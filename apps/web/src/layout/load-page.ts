/**
 * Leaves the app for a page the browser loads from the server: another site, the provider's sign-in at a data service,
 * or the sign-in screen anew after logging out (`replace`: the page left is not kept in the history). A module of its
 * own so that component tests, which cannot load pages, replace it.
 */
export function loadPage(address: string, { replace = false } = {}): void {
  if (replace) window.location.replace(address);
  else window.location.assign(address);
}
