import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../components/Toasts';
import { fakeNetwork } from '../test-support';
import { axeViolations } from '../test-axe';
import LogoutScreen from './LogoutScreen';

const TOKEN = 'ory_lo_4b1f0c';

/** Like `renderAt`, but the test keeps the query client, to see that logout empties its cache. */
function renderLogout() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['users', 'whoami'], { identity: { traits: { email: 'bea@voorbeeldstad.nl' } } });
  client.setQueryData(['services'], { services: [{ id: 'dashboard' }] });
  const view = render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/uitloggen']}>
          <Routes>
            <Route path="/uitloggen" element={<LogoutScreen />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { ...view, client };
}

function network(
  createAnswer: { status: number; body?: unknown } = {
    status: 200,
    body: { logout_url: `${window.location.origin}/self-service/logout?token=${TOKEN}`, logout_token: TOKEN },
  },
) {
  return fakeNetwork((url) => {
    if (url.pathname === '/self-service/logout/browser') return createAnswer;
    if (url.pathname === '/self-service/logout')
      return url.searchParams.get('token') === TOKEN
        ? { status: 204 }
        : { status: 403, body: { error: { code: 403 } } };
    return undefined;
  });
}

/**
 * jsdom cannot load another document, but it does follow a change of the hash alone. The test page therefore starts
 * at /login#start: a `location.replace('/login')` then lands on http://localhost:3000/login (without the hash) and
 * keeps the history length, while a navigation anywhere else would leave the address as it was.
 */
const startAddress = '/login#start';
const reloadedAtLogin = () => window.location.href === `${window.location.origin}/login`;

beforeEach(() => {
  window.history.replaceState(null, '', startAddress);
  window.localStorage.setItem('dvp-return-to', '/settings#boven');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe('LogoutScreen', () => {
  it('says it is logging out, with its own page title', async () => {
    network();
    const { container } = renderLogout();
    expect(screen.getByRole('status')).toHaveTextContent('Je wordt uitgelogd…');
    expect(document.title).toBe('Uitloggen – Datavoorzieningen Portaal');
    expect(await axeViolations(container)).toEqual([]);
    await waitFor(() => expect(reloadedAtLogin()).toBe(true));
  });

  it('makes a logout flow, ends the session with its token, clears the cache and storage, reloads /login', async () => {
    const calls = network();
    const historyLength = window.history.length;
    const { client } = renderLogout();
    await waitFor(() => expect(reloadedAtLogin()).toBe(true));
    expect(window.history.length).toBe(historyLength);
    expect(calls.map((call) => `${call.init?.method ?? 'GET'} ${call.url.pathname}${call.url.search}`)).toEqual([
      'GET /self-service/logout/browser',
      `GET /self-service/logout?token=${TOKEN}`,
    ]);
    expect(new Headers(calls[0]!.init?.headers).get('Accept')).toBe('application/json');
    expect(calls[0]!.init?.credentials).toBe('include');
    expect(client.getQueryCache().getAll()).toEqual([]);
    expect(window.localStorage.getItem('dvp-return-to')).toBeNull();
    expect(window.localStorage.length).toBe(0);
    // The sign-in screen after the reload says so and puts the focus in its form (WCAG 2.4.3).
    expect(window.sessionStorage.getItem('dvp-uitgelogd')).toBe('1');
  });

  it('ignores a 401 (no session any more) without logging, still clears everything and goes to /login', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const calls = network({
      status: 401,
      body: {
        error: {
          id: 'session_inactive',
          code: 401,
          status: 'Unauthorized',
          reason: 'No active session was found in this request.',
          message: 'request does not have a valid authentication session',
        },
      },
    });
    const { client } = renderLogout();
    await waitFor(() => expect(reloadedAtLogin()).toBe(true));
    expect(calls.map((call) => call.url.pathname)).toEqual(['/self-service/logout/browser']);
    expect(logged).not.toHaveBeenCalledWith('Uitloggen is niet gelukt.', expect.anything());
    expect(client.getQueryCache().getAll()).toEqual([]);
    expect(window.localStorage.getItem('dvp-return-to')).toBeNull();
  });

  it('logs another failure and still clears the local state and goes to /login', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    network({
      status: 500,
      body: {
        error: {
          code: 500,
          status: 'Internal Server Error',
          message: 'An internal server error occurred, please contact the system administrator',
        },
      },
    });
    const { client } = renderLogout();
    await waitFor(() => expect(reloadedAtLogin()).toBe(true));
    expect(logged).toHaveBeenCalledWith('Uitloggen is niet gelukt.', expect.anything());
    expect(client.getQueryCache().getAll()).toEqual([]);
    expect(window.localStorage.length).toBe(0);
  });
});
