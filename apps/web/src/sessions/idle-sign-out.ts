// Why the person was signed out, carried from the idle warning to the sign-in screen across the logout's reload.
const KEY = 'dvp-uitgelogd-na-minuten';

export const rememberIdleSignOut = (minutes: number) => window.sessionStorage.setItem(KEY, String(minutes));

/** The idle timeout in minutes when the last sign-out was for lack of use. */
export function idleSignOut(): number | undefined {
  const minutes = Number(window.sessionStorage.getItem(KEY));
  return minutes > 0 ? minutes : undefined;
}

export const forgetIdleSignOut = () => window.sessionStorage.removeItem(KEY);
