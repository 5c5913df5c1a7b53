import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { descriptionOf, errorSummary, fakeNetwork, renderAt, summaryItems } from '../test-support';
import SettingsScreen from './SettingsScreen';

const me = (credentials: string[]) => ({
  active: true,
  identity: { id: 'me', traits: { email: 'ali@dego.nl', name: { first: 'Ali', last: 'Analist' } }, credentials },
  permissions: [],
  activeOrg: { id: 'dego', label: 'DEGO', subdivisions: [] },
  isAdmin: false,
  authenticator_assurance_level: 'aal1',
  aal2Required: false,
});
const settingsFlow = {
  id: 's1',
  type: 'browser',
  state: 'show_form',
  ui: {
    action: '/x',
    method: 'POST',
    nodes: [
      {
        type: 'input',
        group: 'default',
        attributes: { node_type: 'input', name: 'csrf_token', type: 'hidden', value: 'c' },
        messages: [],
        meta: {},
      },
    ],
  },
};

const elsewhere = {
  id: 's-2',
  active: true,
  authenticated_at: '2026-11-20T09:05:00Z',
  devices: [{ id: 's-2', ip_address: '192.0.2.10', user_agent: '', location: '' }],
};

function network(
  credentials: string[],
  onUpdate?: (body: Record<string, unknown>) => { status: number; body?: unknown },
  otherSessions: unknown[] = [],
) {
  return fakeNetwork((url, init) => {
    if (url.pathname === '/sessions') return { status: 200, body: otherSessions };
    if (url.pathname === '/api/users/whoami') return { status: 200, body: me(credentials) };
    if (url.pathname === '/api/config') return { status: 200, body: {} };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/self-service/settings/browser') return { status: 200, body: settingsFlow };
    if (url.pathname === '/self-service/settings' && init?.method === 'POST')
      return onUpdate?.(JSON.parse(String(init.body))) ?? { status: 200, body: { ...settingsFlow, state: 'success' } };
    return undefined;
  });
}

const routes = <Route path="/settings" element={<SettingsScreen />} />;
afterEach(() => vi.unstubAllGlobals());

describe('SettingsScreen', () => {
  it('shows the sections, the current values as placeholders and the 2FA warning', async () => {
    network(['password']);
    const { container } = renderAt('/settings', routes);
    expect(await screen.findByRole('heading', { name: 'Account instelling wijzigen' })).toBeInTheDocument();
    expect(screen.getByLabelText('Naam')).toHaveAttribute('placeholder', 'Ali');
    expect(container.querySelector('input[autocomplete="username"]')).toHaveValue('ali@dego.nl');
    expect(screen.getByLabelText('E-mailadres')).toHaveAttribute('autocomplete', 'email');
    expect(await screen.findByText('Let op! Je hebt nog geen 2FA geconfigureerd.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '2FA configureren' })).toHaveAttribute('href', '/settings/2fa-app');
    expect(screen.getByText('Het wachtwoord moet minimaal 8 tekens zijn.')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Terug naar overzicht - bewerkingen worden niet opgeslagen' }),
    ).toHaveAttribute('href', '/permissies');
  });

  it('says nothing changed, then shows the password rules of spec §5', async () => {
    network(['password', 'totp']);
    renderAt('/settings', routes);
    const save = await screen.findByRole('button', { name: 'Bewerkingen opslaan' });
    await userEvent.click(save);
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    expect(summaryItems()).toEqual(['Geen van de velden is aangepast.']);
    await userEvent.type(screen.getByLabelText('Nieuw wachtwoord'), 'lang-genoeg-1');
    await userEvent.type(screen.getByLabelText('Wachtwoord bevestigen'), 'anders-1234');
    await userEvent.click(save);
    await waitFor(() => expect(summaryItems()).toEqual(['Wachtwoorden komen niet overeen.']));
    expect(errorSummary()).toHaveFocus();
    expect(screen.getByLabelText('Wachtwoord bevestigen')).toHaveAttribute('aria-invalid', 'true');
    expect(descriptionOf(screen.getByLabelText('Wachtwoord bevestigen'))).toBe('Wachtwoorden komen niet overeen.');
  });

  it('shows and hides the password with the toggle', async () => {
    network(['password']);
    renderAt('/settings', routes);
    const field = await screen.findByLabelText('Nieuw wachtwoord');
    expect(field).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Toon nieuw wachtwoord' }));
    expect(field).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Verberg nieuw wachtwoord' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('saves a new first name as a profile update and confirms it', async () => {
    const sent: Record<string, unknown>[] = [];
    network(['password', 'totp'], (body) => {
      sent.push(body);
      return { status: 200, body: { ...settingsFlow, state: 'success' } };
    });
    renderAt('/settings', routes);
    await userEvent.type(await screen.findByLabelText('Naam'), 'Alia');
    await userEvent.click(screen.getByRole('button', { name: 'Bewerkingen opslaan' }));
    expect(await screen.findByText('Je gegevens zijn aangepast.')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({
      method: 'profile',
      traits: { email: 'ali@dego.nl', name: { first: 'Alia', last: 'Analist' } },
      csrf_token: 'c',
    });
  });

  it('offers to end the other sessions after a password change, and not after a name change', async () => {
    network(['password', 'totp'], undefined, [elsewhere]);
    renderAt('/settings', routes);
    expect(await screen.findByRole('button', { name: 'Uitloggen op Onbekend apparaat' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Naam'), 'Alia');
    await userEvent.click(screen.getByRole('button', { name: 'Bewerkingen opslaan' }));
    expect(await screen.findByText('Je gegevens zijn aangepast.')).toBeInTheDocument();
    expect(screen.queryByText(/Je bent nog ingelogd op/)).toBeNull();
    await userEvent.type(screen.getByLabelText('Nieuw wachtwoord'), 'Kade-Brug-Sluis-Molen-93');
    await userEvent.type(screen.getByLabelText('Wachtwoord bevestigen'), 'Kade-Brug-Sluis-Molen-93');
    await userEvent.click(screen.getByRole('button', { name: 'Bewerkingen opslaan' }));
    expect(await screen.findByText(/Je bent nog ingelogd op een ander apparaat\./)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Op alle andere apparaten uitloggen' })).toHaveLength(1);
  });
});
