// Why the person was signed out, carried from the idle warning to the sign-in screen across the logout's reload.
const KEY = 'dvp-uitgelogd-na-minuten';
// That the person has just signed out at all (the logout screen), for the sign-in screen after the reload.
const SIGNED_OUT = 'dvp-uitgelogd';

export const rememberIdleSignOut = (minutes: number) => window.sessionStorage.setItem(KEY, String(minutes));

/** The idle timeout in minutes when the last sign-out was for lack of use. */
export function idleSignOut(): number | undefined {
  const minutes = Number(window.sessionStorage.getItem(KEY));
  return minutes > 0 ? minutes : undefined;
}

export const forgetIdleSignOut = () => {
  window.sessionStorage.removeItem(KEY);
  window.sessionStorage.removeItem(SIGNED_OUT);
};

/** Called by the logout screen once the session has ended, before it reloads at the sign-in screen. */
export const rememberSignOut = () => window.sessionStorage.setItem(SIGNED_OUT, '1');

/** Whether the sign-in screen opens right after a sign-out (by the person or for lack of use). */
export const justSignedOut = () => window.sessionStorage.getItem(SIGNED_OUT) === '1' || idleSignOut() !== undefined;
