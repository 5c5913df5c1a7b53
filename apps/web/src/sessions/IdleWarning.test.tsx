import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usersApi } from '../api/users-api';
import { Address, fakeNetwork, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import { idleSignOut } from './idle-sign-out';
import { IdleWarning } from './IdleWarning';

const MINUTE = 60_000;

function network(options: { idleSeconds?: number | null; whoami?: number } = {}) {
  return fakeNetwork((url) => {
    if (url.pathname === '/api/config')
      return {
        status: 200,
        body: { sessionIdleSeconds: options.idleSeconds === undefined ? 1800 : options.idleSeconds },
      };
    if (url.pathname === '/sessions/whoami')
      return options.whoami === 401
        ? { status: 401, body: { error: { code: 401, id: 'session_inactive' } } }
        : { status: 200, body: { id: 's1', active: true } };
    if (url.pathname === '/api/users/whoami') return { status: 200, body: {} };
    return undefined;
  });
}

const show = () =>
  renderAt(
    '/permissies',
    <>
      <Route
        path="/permissies"
        element={
          <>
            <IdleWarning />
            <Address />
          </>
        }
      />
      <Route path="/uitloggen" element={<Address />} />
    </>,
  );

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const warning = () => screen.queryByRole('alertdialog', { name: 'Je wordt bijna uitgelogd' });

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe('IdleWarning', () => {
  it('warns two minutes before the idle timeout, a minute early for the server; keeps it on request', async () => {
    const calls = network();
    const { container } = show();
    await wait(0);
    await wait(26 * MINUTE + 50 * 1000);
    expect(warning()).toBeNull();
    await wait(15 * 1000);
    const dialog = warning()!;
    expect(dialog).not.toBeNull();
    expect(
      within(dialog).getByText(
        'Je hebt een tijd niets gedaan in het portaal. Om je account te beschermen word je over 2 ' +
          'minuten automatisch uitgelogd.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Ingelogd blijven' })).toHaveFocus();
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Ingelogd blijven' }));
    await wait(0);
    expect(warning()).toBeNull();
    expect(calls.filter((call) => call.url.pathname === '/sessions/whoami')).toHaveLength(1);
    // The clock starts again from that answer.
    await wait(26 * MINUTE);
    expect(warning()).toBeNull();
    await wait(2 * MINUTE);
    expect(warning()).not.toBeNull();
  });

  it('signs out by itself when nobody answers, and leaves the reason for the sign-in screen', async () => {
    network();
    show();
    await wait(0);
    await wait(28 * MINUTE + 50 * 1000);
    expect(screen.getByText('Adres: /permissies')).toBeInTheDocument();
    await wait(15 * 1000);
    expect(screen.getByText('Adres: /uitloggen')).toBeInTheDocument();
    expect(idleSignOut()).toBe(30);
  });

  it('counts every answer from the server as use, also one seen by another tab', async () => {
    network();
    show();
    await wait(0);
    await wait(20 * MINUTE);
    await act(() => usersApi('/users/whoami'));
    await wait(20 * MINUTE);
    expect(warning()).toBeNull();
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'dvp-server-contact', newValue: String(Date.now()) }));
    });
    await wait(20 * MINUTE);
    expect(warning()).toBeNull();
    await wait(7 * MINUTE + 10 * 1000);
    expect(warning()).not.toBeNull();
  });

  it('signs out with the reason when the session already ended on the server', async () => {
    network({ whoami: 401 });
    show();
    await wait(0);
    await wait(27 * MINUTE + 10 * 1000);
    await userEvent.click(within(warning()!).getByRole('button', { name: 'Ingelogd blijven' }));
    await wait(0);
    expect(screen.getByText('Adres: /uitloggen')).toBeInTheDocument();
    expect(idleSignOut()).toBe(30);
  });

  it('lets the person sign out from the warning, without a reason to show afterwards', async () => {
    network();
    show();
    await wait(0);
    await wait(27 * MINUTE + 10 * 1000);
    await userEvent.click(within(warning()!).getByRole('button', { name: 'Uitloggen' }));
    expect(screen.getByText('Adres: /uitloggen')).toBeInTheDocument();
    expect(idleSignOut()).toBeUndefined();
  });

  it('stays silent when the identity provider has no idle timeout (Ory Kratos)', async () => {
    network({ idleSeconds: null });
    show();
    await wait(0);
    await wait(24 * 60 * MINUTE);
    expect(warning()).toBeNull();
    expect(screen.getByText('Adres: /permissies')).toBeInTheDocument();
  });
});
