// The server's idle timeout counts from the session's last request; every answer the portal gets (but a 401, which
// means there is no session) is such a request. Tabs share the session cookie, so they share this moment too:
// a tab left alone must not sign out a person who is busy in another one.

const STORAGE_KEY = 'dvp-server-contact';
let last = Date.now();
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

/** Records that the server just answered a request made with the session. */
export function noteServerContact(status: number): void {
  if (status === 401) return;
  last = Date.now();
  window.localStorage.setItem(STORAGE_KEY, String(last));
  notify();
}

window.addEventListener('storage', (event) => {
  const at = event.key === STORAGE_KEY ? Number(event.newValue) : NaN;
  if (at > last) {
    last = at;
    notify();
  }
});

export const lastServerContact = () => last;

/** Calls `listener` after every server contact, in this tab or another; returns the way to stop. */
export function onServerContact(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
