import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import { LogOutOthersOffer } from './LogOutOthersOffer';
import { OtherSessions } from './OtherSessions';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like ' +
  'Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const session = (id: string, userAgent: string, ip: string) => ({
  id,
  active: true,
  authenticated_at: '2026-11-20T09:05:00Z',
  devices: [{ id, ip_address: ip, user_agent: userAgent, location: '' }],
});

/** The identity provider's session list, shrinking as sessions are ended; `fail` refuses the ending. */
function sessionsNetwork(initial: ReturnType<typeof session>[], options: { fail?: boolean; listStatus?: number } = {}) {
  let sessions = initial;
  const calls = fakeNetwork((url, init) => {
    if (url.pathname === '/sessions' && (init?.method ?? 'GET') === 'GET')
      return options.listStatus
        ? { status: options.listStatus, body: { error: { code: options.listStatus } } }
        : { status: 200, body: sessions };
    if (options.fail) return { status: 500, body: { error: { code: 500, message: 'Internal Server Error' } } };
    if (url.pathname === '/sessions' && init?.method === 'DELETE') {
      const count = sessions.length;
      sessions = [];
      return { status: 200, body: { count } };
    }
    const one = /^\/sessions\/(.+)$/.exec(url.pathname);
    if (one && init?.method === 'DELETE') {
      sessions = sessions.filter((s) => s.id !== one[1]);
      return { status: 204 };
    }
    return undefined;
  });
  return calls;
}

const deletes = (calls: ReturnType<typeof fakeNetwork>) =>
  calls.filter((call) => call.init?.method === 'DELETE').map((call) => call.url.pathname);
const show = (element: React.ReactElement) => renderAt('/settings', <Route path="/settings" element={element} />);

afterEach(() => vi.unstubAllGlobals());

describe('OtherSessions', () => {
  it('names each row and its button apart, also two sessions of the same browser in the same minute', async () => {
    sessionsNetwork([
      session('8c1f0a2e-1111-4aaa-8bbb-000000000001', FIREFOX, '192.0.2.10'),
      session('3d92b7c4-2222-4aaa-8bbb-000000000002', FIREFOX, '192.0.2.10'),
    ]);
    show(<OtherSessions />);
    const region = await screen.findByRole('region', { name: 'Ingelogd op andere apparaten' });
    await within(region).findByRole('list');
    const names = within(region)
      .getAllByRole('button', { name: /^Uitloggen op Firefox op Linux/ })
      .map((button) => button.getAttribute('aria-label'));
    expect(names).toEqual([
      expect.stringMatching(
        new RegExp(
          '^Uitloggen op Firefox op Linux \\(Ingelogd op 20 november 2026 om \\d\\d:05, ' +
            'IP-adres 192\\.0\\.2\\.10, kenmerk 8c1f0a2e\\)$',
        ),
      ),
      expect.stringMatching(/kenmerk 3d92b7c4\)$/),
    ]);
    expect(new Set(names).size).toBe(2);
  });

  it('lists the other sessions with device, time and address, and ends one of them', async () => {
    const calls = sessionsNetwork([session('s-1', FIREFOX, '192.0.2.10'), session('s-2', SAFARI, '198.51.100.7')]);
    const { container } = show(<OtherSessions />);
    const region = await screen.findByRole('region', { name: 'Ingelogd op andere apparaten' });
    await within(region).findByRole('list');
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(
        /^Firefox op LinuxIngelogd op 20 november 2026 om \d\d:05 · IP-adres 192\.0\.2\.10 · kenmerk s1Uitloggen$/,
      ),
      expect.stringMatching(
        /^Safari op iOSIngelogd op 20 november 2026 om \d\d:05 · IP-adres 198\.51\.100\.7 · kenmerk s2Uitloggen$/,
      ),
    ]);
    expect(
      screen.getByText('Herken je een apparaat niet? Log daar dan uit en verander je wachtwoord.'),
    ).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: /^Uitloggen op Firefox op Linux \(/ }));
    expect(await screen.findByText('Je bent uitgelogd op Firefox op Linux.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Uitloggen op Firefox op Linux \(/ })).toBeNull());
    expect(deletes(calls)).toEqual(['/sessions/s-1']);
    // With one other session left, ending 'all' would be the same button twice.
    expect(screen.queryByRole('button', { name: 'Op alle andere apparaten uitloggen' })).toBeNull();
  });

  it('ends every other session at once', async () => {
    const calls = sessionsNetwork([session('s-1', FIREFOX, '192.0.2.10'), session('s-2', SAFARI, '198.51.100.7')]);
    show(<OtherSessions />);
    await userEvent.click(await screen.findByRole('button', { name: 'Op alle andere apparaten uitloggen' }));
    expect(await screen.findByText('Je bent nergens anders ingelogd.')).toBeInTheDocument();
    expect(screen.getByText('Je bent op alle andere apparaten uitgelogd.')).toBeInTheDocument();
    expect(deletes(calls)).toEqual(['/sessions']);
  });

  it('says so when there is no other session, and when the list cannot be fetched', async () => {
    sessionsNetwork([]);
    const { unmount } = show(<OtherSessions />);
    expect(screen.getByRole('status')).toHaveTextContent('Laden…');
    expect(await screen.findByText('Je bent nergens anders ingelogd.')).toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();
    sessionsNetwork([], { listStatus: 500 });
    show(<OtherSessions />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Het ophalen van je andere sessies is niet gelukt. Probeer het later nog eens.',
    );
  });

  it('says so when ending a session fails, and keeps it in the list', async () => {
    sessionsNetwork([session('s-1', FIREFOX, '192.0.2.10')], { fail: true });
    show(<OtherSessions />);
    await userEvent.click(await screen.findByRole('button', { name: /^Uitloggen op Firefox op Linux \(/ }));
    expect(
      await screen.findByText('Uitloggen op het andere apparaat is niet gelukt. Probeer het nog eens.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Uitloggen op Firefox op Linux \(/ })).toBeEnabled();
  });
});

describe('LogOutOthersOffer', () => {
  it('shows nothing when the person is signed in nowhere else', async () => {
    const calls = sessionsNetwork([]);
    show(<LogOutOthersOffer />);
    await waitFor(() => expect(calls.some((call) => call.url.pathname === '/sessions')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('counts the other devices and ends their sessions', async () => {
    const calls = sessionsNetwork([session('s-1', FIREFOX, '192.0.2.10'), session('s-2', SAFARI, '198.51.100.7')]);
    const { container } = show(<LogOutOthersOffer />);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Je bent nog ingelogd op 2 andere apparaten. Gebruik je dat niet meer, of was jij dat niet? Log daar dan uit.',
    );
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Op alle andere apparaten uitloggen' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Je bent op alle andere apparaten uitgelogd.');
    expect(deletes(calls)).toEqual(['/sessions']);
  });

  it('names a single other device, and says so when ending fails', async () => {
    sessionsNetwork([session('s-1', FIREFOX, '192.0.2.10')], { fail: true });
    show(<LogOutOthersOffer />);
    expect(await screen.findByRole('status')).toHaveTextContent('Je bent nog ingelogd op een ander apparaat.');
    await userEvent.click(screen.getByRole('button', { name: 'Op alle andere apparaten uitloggen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Uitloggen op het andere apparaat is niet gelukt. Probeer het nog eens.',
    );
  });
});
