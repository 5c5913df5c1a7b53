import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onForgetCachedAnswers } from './cached-answers';

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
onForgetCachedAnswers(() => queryClient.invalidateQueries());

/** The cache of server answers for every screen but the sign-in (loaded with the first of those screens). */
export function ServerData({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
