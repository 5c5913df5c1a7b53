import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { frontend, idpErrorOf } from '../api/ory';
import { usePageLoader } from '../layout/load-page';
import { usePageTitle } from '../layout/use-page-title';
import { rememberSignOut } from '../sessions/idle-sign-out';

/**
 * Logout: logout flow, its token, then /login with a reload; the cache and local storage are cleared. The
 * sign-in screen is told (in session storage, which the reload keeps) to say so and to put the focus in its form.
 */
export default function LogoutScreen() {
  usePageTitle('Uitloggen');
  const queryClient = useQueryClient();
  const loadPage = usePageLoader();
  useEffect(() => {
    void (async () => {
      try {
        const { logout_token: token } = await frontend.createBrowserLogoutFlow();
        await frontend.updateLogoutFlow(token);
      } catch (error) {
        const { status } = await idpErrorOf(error);
        if (status !== 401) console.error('Uitloggen is niet gelukt.', error);
      }
      queryClient.clear();
      window.localStorage.clear();
      rememberSignOut();
      loadPage('/login', { replace: true });
    })();
  }, [queryClient, loadPage]);
  return (
    <main className="dvp-main" id="inhoud">
      <p role="status">Je wordt uitgelogd…</p>
    </main>
  );
}
