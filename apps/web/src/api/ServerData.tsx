import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onForgetCachedAnswers } from './cached-answers';

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
// Dropped, not marked stale: a screen would otherwise decide on the old answer while the new one loads (the
// second-factor gate sending a person who just met it back to the sign-in).
onForgetCachedAnswers(async () => queryClient.removeQueries());

/** The cache of server answers for every screen but the sign-in (loaded with the first of those screens). */
export function ServerData({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
