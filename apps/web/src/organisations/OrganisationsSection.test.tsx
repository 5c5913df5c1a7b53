import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SettingsScreen from '../screens/SettingsScreen';
import { axeViolations } from '../test-axe';
import { renderAt } from '../test-support';
import { DEGO, invitationFrom, membershipServer, VOORBEELDSTAD } from './membership-fixtures';
import { ACCEPT_FAILED, DECLINE_FAILED, LEAVE_FAILED } from './use-memberships';

const settingsFlow = {
  id: 's1',
  type: 'browser',
  state: 'show_form',
  ui: { action: '/x', method: 'POST', nodes: [] },
};

/** The settings screen's own calls (its flow, the other sessions), beside the memberships. */
const settingsCalls = (url: URL) => {
  if (url.pathname === '/self-service/settings/browser') return { status: 200, body: settingsFlow };
  if (url.pathname === '/sessions') return { status: 200, body: [] };
  return undefined;
};
const server = (options: Parameters<typeof membershipServer>[0] = {}) =>
  membershipServer({ ...options, extra: settingsCalls });

const routes = <Route path="/settings" element={<SettingsScreen />} />;
const section = () => screen.getByRole('region', { name: 'Organisaties' });
const items = () =>
  within(within(section()).getAllByRole('list')[0]!)
    .getAllByRole('listitem')
    .map((item) => item.textContent);

afterEach(() => vi.unstubAllGlobals());

describe('Organisaties on the account settings', () => {
  it("lists the person's organisations, home and administrator marked, 'Verlaten' for all but the home", async () => {
    server({ organisations: [DEGO, VOORBEELDSTAD] });
    const { container } = renderAt('/settings', routes);
    await screen.findByRole('heading', { name: 'Organisaties' });
    expect(items()).toEqual(['DEGOMedewerkerVerlaten', 'Gemeente VoorbeeldstadThuisorganisatie · Beheerder']);
    expect(
      within(section())
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['DEGO verlaten']);
    expect(within(section()).queryByRole('heading', { name: 'Uitnodigingen' })).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('leaves an organisation after a confirmation that says what happens, and says so', async () => {
    const { calls } = server({
      organisations: [
        { ...DEGO, isAdmin: true, active: true },
        { ...VOORBEELDSTAD, active: false },
      ],
    });
    const { container } = renderAt('/settings', routes);
    const leave = await screen.findByRole('button', { name: 'DEGO verlaten' });
    await userEvent.click(leave);
    let dialog = await screen.findByRole('alertdialog', { name: 'Organisatie verlaten' });
    expect(dialog).toHaveTextContent(
      'Weet je zeker dat je DEGO wilt verlaten? Je verliest dan je datarollen en je beheerdersrol bij ' +
        'DEGO en de toegang tot de datavoorzieningen die daarbij horen. Je account blijft bestaan.',
    );
    expect(dialog).toHaveTextContent(
      'Je bent daarna weer ingelogd voor Gemeente Voorbeeldstad. Wil je later weer meedoen, dan moet ' +
        'een beheerder van DEGO je opnieuw uitnodigen.',
    );
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Annuleren' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(leave).toHaveFocus());
    expect(calls.some((call) => call.init?.method === 'DELETE')).toBe(false);

    await userEvent.click(leave);
    dialog = await screen.findByRole('alertdialog', { name: 'Organisatie verlaten' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verlaten' }));
    expect(await screen.findByText('Je hebt DEGO verlaten.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(items()).toEqual(['Gemeente VoorbeeldstadThuisorganisatie · Beheerder']);
    // The sidebar follows: the home organisation is active again, and there is nothing left to switch to.
    expect(screen.getByText('Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Wissel van organisatie' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Organisaties' })).toHaveFocus());
    const deleted = calls.find((call) => call.init?.method === 'DELETE');
    expect(deleted?.url.pathname).toBe('/api/users/organisations/dego');
  });

  it("shows the server's Dutch reason inside the dialog when leaving is refused, else its own text", async () => {
    let message: string | undefined = 'Je thuisorganisatie kun je niet verlaten.';
    server({
      refuse: (url) =>
        url.pathname.startsWith('/api/users/organisations/')
          ? { status: 409, body: { error: { id: 'home_organisation', ...(message ? { message } : {}) } } }
          : undefined,
    });
    renderAt('/settings', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'DEGO verlaten' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verlaten' }));
    const reason = await within(dialog).findByText('Je thuisorganisatie kun je niet verlaten.');
    expect(within(dialog).getByRole('alert')).toContainElement(reason);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    message = undefined;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verlaten' }));
    expect(await within(dialog).findByText(LEAVE_FAILED)).toBeInTheDocument();
  });

  it('shows an invitation with who invited, the data roles, as administrator, and until when', async () => {
    server({
      organisations: [VOORBEELDSTAD],
      invitations: [
        invitationFrom('dego', 'DEGO', {
          isAdmin: true,
          dataRoles: [
            { roleId: 'analyse', label: 'Analyse' },
            { roleId: 'bi', label: 'Rapportage' },
          ],
        }),
        invitationFrom('dijkstad', 'Gemeente Dijkstad', { dataRoles: [] }),
      ],
    });
    const { container } = renderAt('/settings', routes);
    await screen.findByRole('heading', { name: 'Uitnodigingen' });
    const invitations = within(within(section()).getAllByRole('list')[1]!).getAllByRole('listitem');
    expect(invitations[0]).toHaveTextContent('DEGO');
    expect(invitations[0]).toHaveTextContent('Uitgenodigd door beheerder@dego.nl, als beheerder.');
    expect(invitations[0]).toHaveTextContent('Datarollen: Analyse, Rapportage.');
    expect(invitations[0]).toHaveTextContent(/Geldig tot 26 november 2026 om \d\d:00\./);
    expect(invitations[1]).toHaveTextContent('Uitgenodigd door beheerder@dijkstad.nl.');
    expect(invitations[1]).toHaveTextContent('Zonder datarollen.');
    expect(
      within(invitations[0]!)
        .getAllByRole('button')
        .map((button) => `${button.textContent} (${button.getAttribute('aria-label')})`),
    ).toEqual(['Accepteren (Uitnodiging van DEGO accepteren)', 'Weigeren (Uitnodiging van DEGO weigeren)']);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('accepts: the person is a member, the notice goes, the sidebar offers the switch, a toast says so', async () => {
    const { calls } = server({ organisations: [VOORBEELDSTAD], invitations: [invitationFrom('dego', 'DEGO')] });
    renderAt('/settings', routes);
    expect(await screen.findByText(/Je bent uitgenodigd voor DEGO\./)).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Wissel van organisatie' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Uitnodiging van DEGO accepteren' }));
    expect(await screen.findByText('Je bent nu lid van DEGO.')).toBeInTheDocument();
    expect(items()).toEqual(['DEGOMedewerkerVerlaten', 'Gemeente VoorbeeldstadThuisorganisatie · Beheerder']);
    expect(screen.queryByRole('heading', { name: 'Uitnodigingen' })).toBeNull();
    expect(screen.queryByText(/Je bent uitgenodigd voor/)).toBeNull();
    expect(
      within(screen.getByRole('group', { name: 'Wissel van organisatie' })).getByRole('radio', {
        name: 'Gemeente Voorbeeldstad',
      }),
    ).toBeChecked();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Organisaties' })).toHaveFocus());
    const accepted = calls.find((call) => call.init?.method === 'POST');
    expect(accepted?.url.pathname).toBe('/api/invitations/inv-dego/accept');
  });

  it('declines: the invitation goes and nothing else changes', async () => {
    const { calls } = server({ organisations: [VOORBEELDSTAD], invitations: [invitationFrom('dego', 'DEGO')] });
    renderAt('/settings', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Uitnodiging van DEGO weigeren' }));
    expect(await screen.findByText('Uitnodiging geweigerd.')).toBeInTheDocument();
    expect(items()).toEqual(['Gemeente VoorbeeldstadThuisorganisatie · Beheerder']);
    expect(screen.queryByRole('heading', { name: 'Uitnodigingen' })).toBeNull();
    expect(screen.queryByText(/Je bent uitgenodigd voor/)).toBeNull();
    expect(calls.find((call) => call.init?.method === 'POST')?.url.pathname).toBe('/api/invitations/inv-dego/decline');
  });

  it("shows the server's Dutch reason for an invitation that is gone, else its own text", async () => {
    let message: string | undefined = 'Deze uitnodiging is verlopen of ingetrokken.';
    server({
      organisations: [VOORBEELDSTAD],
      invitations: [invitationFrom('dego', 'DEGO')],
      refuse: (url) =>
        url.pathname.startsWith('/api/invitations/')
          ? { status: 404, body: { error: { id: 'invitation_not_found', ...(message ? { message } : {}) } } }
          : undefined,
    });
    renderAt('/settings', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Uitnodiging van DEGO accepteren' }));
    expect(await screen.findByText('Deze uitnodiging is verlopen of ingetrokken.')).toBeInTheDocument();
    message = undefined;
    await userEvent.click(screen.getByRole('button', { name: 'Uitnodiging van DEGO accepteren' }));
    expect(await screen.findByText(ACCEPT_FAILED)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Uitnodiging van DEGO weigeren' }));
    expect(await screen.findByText(DECLINE_FAILED)).toBeInTheDocument();
  });

  it("brings the focus to the invitations when the person arrives by the notice's link", async () => {
    server({ organisations: [VOORBEELDSTAD], invitations: [invitationFrom('dego', 'DEGO')] });
    renderAt('/settings#organisaties', routes);
    const heading = await screen.findByRole('heading', { name: 'Uitnodigingen' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading.closest('section')).toHaveAttribute('id', 'organisaties');
  });

  it("brings the focus to 'Organisaties' by the notice's link when no invitation waits any more", async () => {
    server({ organisations: [VOORBEELDSTAD] });
    renderAt('/settings#organisaties', routes);
    const heading = await screen.findByRole('heading', { name: 'Organisaties' });
    await waitFor(() => expect(heading).toHaveFocus());
  });
});
