import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RestartNotice } from '../components/RestartNotice';
import { axeViolations } from '../test-axe';
import {
  Address,
  descriptionOf,
  errorSummary,
  fakeNetwork,
  renderAt,
  summaryItems,
  unreachable,
} from '../test-support';
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
  config: Record<string, unknown> = {},
) {
  return fakeNetwork((url, init) => {
    if (url.pathname === '/sessions') return { status: 200, body: otherSessions };
    if (url.pathname === '/api/users/whoami') return { status: 200, body: me(credentials) };
    if (url.pathname === '/api/config') return { status: 200, body: config };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/self-service/settings/browser') return { status: 200, body: settingsFlow };
    if (url.pathname === '/self-service/settings' && init?.method === 'POST')
      return onUpdate?.(JSON.parse(String(init.body))) ?? { status: 200, body: { ...settingsFlow, state: 'success' } };
    return undefined;
  });
}

const routes = <Route path="/settings" element={<SettingsScreen />} />;
/** The error summary of the password section (the profile section's is `errorSummary()`). */
const passwordSummary = () =>
  within(screen.getByRole('heading', { name: 'Wachtwoord aanpassen' }).closest('section')!).getByRole('alert', {
    name: 'Controleer de volgende velden:',
  });
const itemsOf = (summary: HTMLElement) =>
  within(summary)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
afterEach(() => vi.unstubAllGlobals());

describe('SettingsScreen', () => {
  it('shows the sections, the current values as descriptions (no placeholders) and the 2FA status', async () => {
    network(['password', 'lookup_secret']);
    const { container } = renderAt('/settings', routes);
    expect(await screen.findByRole('heading', { name: 'Account instelling wijzigen' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Naam')).toHaveAccessibleDescription('Nu: Ali'));
    expect(screen.getByLabelText('Achternaam')).toHaveAccessibleDescription('Nu: Analist');
    expect(screen.getByLabelText('E-mailadres')).toHaveAccessibleDescription('Nu: ali@dego.nl');
    expect(container.querySelectorAll('input[placeholder]')).toHaveLength(0);
    expect(container.querySelector('input[autocomplete="username"]')).toHaveValue('ali@dego.nl');
    expect(screen.getByLabelText('E-mailadres')).toHaveAttribute('autocomplete', 'email');
    expect(await screen.findByText('Let op! Je hebt nog geen 2FA geconfigureerd.')).toBeInTheDocument();
    const status = screen.getByRole('list', { name: 'Status van je twee-factor-authenticatie' });
    expect(
      within(status)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Authenticator-app: niet ingesteld',
      'Back-upcodes: ingesteld',
      'Beveiligingssleutel of passkey: niet ingesteld',
    ]);
    expect(screen.getByRole('link', { name: '2FA configureren' })).toHaveAttribute('href', '/settings/2fa-app');
    expect(screen.getByText('Het wachtwoord moet minimaal 8 tekens zijn.')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Terug naar overzicht - bewerkingen worden niet opgeslagen' }),
    ).toHaveAttribute('href', '/permissies');
    expect(await axeViolations(container)).toEqual([]);
  });

  it("puts each save button in its own section, after that section's fields", async () => {
    network(['password', 'totp']);
    renderAt('/settings', routes);
    const sectionOf = async (name: string) =>
      (await screen.findByRole('heading', { name, level: 2 })).closest('section')!;
    const profile = await sectionOf('Account instelling wijzigen');
    const password = await sectionOf('Wachtwoord aanpassen');
    expect(within(profile).getByRole('button', { name: 'Bewerkingen opslaan' })).toBeInTheDocument();
    expect(within(password).getByRole('button', { name: 'Wachtwoord opslaan' })).toBeInTheDocument();
    expect(within(profile).queryByLabelText('Nieuw wachtwoord')).toBeNull();
    expect(within(password).queryByLabelText('Naam')).toBeNull();
    const twoFactor = await sectionOf('Twee-factor-authenticatie configureren');
    expect(within(twoFactor).getByText('ingesteld', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.queryByText('Let op! Je hebt nog geen 2FA geconfigureerd.')).toBeNull();
  });

  it('says nothing changed in each section, then shows the password rules', async () => {
    network(['password', 'totp']);
    renderAt('/settings', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Bewerkingen opslaan' }));
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    expect(summaryItems()).toEqual(['Geen van de velden is aangepast.']);
    const save = screen.getByRole('button', { name: 'Wachtwoord opslaan' });
    await userEvent.type(screen.getByLabelText('Naam'), 'Alia');
    await userEvent.click(save);
    await waitFor(() => expect(passwordSummary()).toHaveFocus());
    expect(itemsOf(passwordSummary())).toEqual(['Geen van de velden is aangepast.']);
    await userEvent.type(screen.getByLabelText('Nieuw wachtwoord'), 'lang-genoeg-1');
    await userEvent.type(screen.getByLabelText('Wachtwoord bevestigen'), 'anders-1234');
    await userEvent.click(save);
    await waitFor(() => expect(itemsOf(passwordSummary())).toEqual(['Wachtwoorden komen niet overeen.']));
    await waitFor(() => expect(passwordSummary()).toHaveFocus());
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
    expect(await screen.findByRole('button', { name: /^Uitloggen op Onbekend apparaat \(/ })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Naam'), 'Alia');
    await userEvent.click(screen.getByRole('button', { name: 'Bewerkingen opslaan' }));
    expect(await screen.findByText('Je gegevens zijn aangepast.')).toBeInTheDocument();
    expect(screen.queryByText(/Je bent nog ingelogd op/)).toBeNull();
    await userEvent.type(screen.getByLabelText('Nieuw wachtwoord'), 'Kade-Brug-Sluis-Molen-93');
    await userEvent.type(screen.getByLabelText('Wachtwoord bevestigen'), 'Kade-Brug-Sluis-Molen-93');
    await userEvent.click(screen.getByRole('button', { name: 'Wachtwoord opslaan' }));
    expect(await screen.findByText(/Je bent nog ingelogd op een ander apparaat\./)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Op alle andere apparaten uitloggen' })).toHaveLength(1);
  });

  describe('says why a save failed', () => {
    const SUPPORT = { supportEmail: 'support@voorbeeldstad.nl' };
    const PROFILE_FAILED = 'Er is iets misgegaan bij het updaten van je gegevens. Probeer het nog eens.';
    const changeAddress = async () => {
      await userEvent.type(await screen.findByLabelText('E-mailadres'), 'bea@voorbeeldstad.nl');
      await userEvent.click(screen.getByRole('button', { name: 'Bewerkingen opslaan' }));
      return screen.findByRole('alert');
    };

    it('shows the provider’s own message, in Dutch, when the address has an account already (4000007)', async () => {
      network(
        ['password', 'totp'],
        () => ({
          status: 400,
          body: {
            ...settingsFlow,
            ui: {
              ...settingsFlow.ui,
              messages: [
                {
                  id: 4000007,
                  text: 'An account with the same identifier (email, phone, username, ...) exists already.',
                  type: 'error',
                },
              ],
            },
          },
        }),
        [],
        SUPPORT,
      );
      const { container } = renderAt('/settings', routes);
      const alert = await changeAddress();
      expect(alert).toHaveTextContent('Er bestaat al een account met dit e-mailadres.');
      expect(alert).not.toHaveTextContent(/Er is iets misgegaan/);
      expect(alert).toHaveFocus();
      expect(await axeViolations(container)).toEqual([]);
    });

    it('drops the provider’s refusal of a password once another is typed, which it did not judge', async () => {
      const refused = { id: 4000034, text: 'The password has been found in data breaches.', type: 'error' };
      network(['password', 'totp'], () => ({
        status: 400,
        body: {
          ...settingsFlow,
          ui: {
            ...settingsFlow.ui,
            nodes: [
              ...settingsFlow.ui.nodes,
              {
                type: 'input',
                group: 'password',
                attributes: { node_type: 'input', name: 'password', type: 'password' },
                messages: [refused],
                meta: {},
              },
            ],
          },
        },
      }));
      renderAt('/settings', routes);
      const LEAKED =
        'Dit wachtwoord staat in een lijst van gelekte of veelgebruikte wachtwoorden. Kies een ander wachtwoord.';
      const password = await screen.findByLabelText('Nieuw wachtwoord');
      await userEvent.type(password, 'wachtwoord1');
      await userEvent.type(screen.getByLabelText('Wachtwoord bevestigen'), 'wachtwoord1');
      await userEvent.click(screen.getByRole('button', { name: 'Wachtwoord opslaan' }));
      expect(await screen.findByText(LEAKED)).toBeInTheDocument();
      await userEvent.type(password, '-en-meer');
      expect(screen.queryByText(LEAKED)).toBeNull();
      // Back to the value refused: the refusal applies again.
      await userEvent.type(password, '{Backspace>8/}');
      expect(screen.getByText(LEAKED)).toBeInTheDocument();
    });

    it('says that something went wrong and where to mail when the server fails (500)', async () => {
      network(['password', 'totp'], () => ({ status: 500, body: { error: { code: 500 } } }), [], SUPPORT);
      renderAt('/settings', routes);
      const alert = await changeAddress();
      expect(alert).toHaveTextContent(PROFILE_FAILED);
      expect(within(alert).getByRole('link', { name: 'support@voorbeeldstad.nl' })).toHaveAttribute(
        'href',
        'mailto:support@voorbeeldstad.nl',
      );
      expect(alert).toHaveTextContent('Blijft dit gebeuren? Mail dan naar support@voorbeeldstad.nl.');
    });

    it('names the helpdesk instead when no support address is set', async () => {
      network(['password', 'totp'], () => ({ status: 500, body: { error: { code: 500 } } }));
      renderAt('/settings', routes);
      const alert = await changeAddress();
      expect(alert).toHaveTextContent(
        `${PROFILE_FAILED}Blijft dit gebeuren? Neem dan contact op met de helpdesk van je organisatie.`,
      );
      expect(within(alert).queryByRole('link')).toBeNull();
    });

    it('says the server cannot be reached when the connection fails', async () => {
      network(['password', 'totp'], undefined, [], SUPPORT);
      unreachable((url) => url.pathname === '/self-service/settings');
      renderAt('/settings', routes);
      const alert = await changeAddress();
      expect(alert).toHaveTextContent(PROFILE_FAILED);
      expect(alert).toHaveTextContent(
        'De server van het portaal is niet bereikbaar. Controleer je internetverbinding en probeer het ' +
          'over een paar minuten nog eens.',
      );
      expect(within(alert).getByRole('link', { name: 'support@voorbeeldstad.nl' })).toBeInTheDocument();
    });

    it('sends a session too old for the change to sign in again, says why, and comes back to settings', async () => {
      network(['password', 'totp'], () => ({
        status: 403,
        body: {
          error: { id: 'session_refresh_required', code: 403, status: 'Forbidden' },
          redirect_browser_to:
            `${window.location.origin}/self-service/login/browser?refresh=true&return_to=` +
            encodeURIComponent(`${window.location.origin}/self-service/settings?flow=s1`),
        },
      }));
      renderAt(
        '/settings',
        <>
          {routes}
          <Route
            path="/login"
            element={
              <>
                <Address />
                <RestartNotice />
              </>
            }
          />
        </>,
      );
      await userEvent.type(await screen.findByLabelText('Nieuw wachtwoord'), 'Kade-Brug-Sluis-Molen-93');
      await userEvent.type(screen.getByLabelText('Wachtwoord bevestigen'), 'Kade-Brug-Sluis-Molen-93');
      await userEvent.click(screen.getByRole('button', { name: 'Wachtwoord opslaan' }));
      const address = await screen.findByText(/^Adres: \/login\?/);
      const query = new URLSearchParams(address.textContent!.replace(/^Adres: \/login\?/, ''));
      expect(query.get('refresh')).toBe('true');
      expect(query.get('return_to')).toBe(window.location.href);
      expect(screen.getByRole('status')).toHaveTextContent(
        'Voor deze wijziging moet je eerst opnieuw inloggen, omdat je al een tijd geleden bent ' +
          'ingelogd. Daarna ga je terug naar je instellingen en doe je de wijziging nog een keer.',
      );
    });
  });
});
