import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onForgetCachedAnswers } from './cached-answers';

/** The cache itself, for a screen's answers fetched while its code loads (`lazyScreen` in App.tsx). */
export const serverAnswers = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
// Dropped, not marked stale: a screen would otherwise decide on the old answer while the new one loads (the
// second-factor gate sending a person who just met it back to the sign-in).
onForgetCachedAnswers(async () => serverAnswers.removeQueries());

/** The cache of server answers for every screen but the sign-in (loaded with the first of those screens). */
export function ServerData({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={serverAnswers}>{children}</QueryClientProvider>;
}
