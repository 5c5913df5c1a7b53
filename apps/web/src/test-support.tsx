import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { vi } from 'vitest';
import { ToastProvider } from './components/Toasts';

type Handler = (url: URL, init: RequestInit | undefined) => { status: number; body?: unknown } | undefined;

/** Answers the portal's fetch calls from a table of handlers (the network, not our components, is faked). */
export function fakeNetwork(handler: Handler) {
  const calls: { url: URL; init: RequestInit | undefined }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input), window.location.origin);
    const effective = request ? { method: request.method, body: await request.clone().text() } : init;
    calls.push({ url, init: effective });
    const answer = handler(url, effective) ?? { status: 404, body: { error: { code: 404, message: 'Not Found' } } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export function renderAt(path: string, routes: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>{routes}</Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}
