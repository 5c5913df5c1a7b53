import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Shell } from '../layout/Shell';
import OverviewScreen from '../overview/OverviewScreen';
import { axeViolations } from '../test-axe';
import { renderAt } from '../test-support';
import { membershipServer, VOORBEELDSTAD } from './membership-fixtures';
import { SWITCH_FAILED } from './use-memberships';

const page = <Route path="/permissies" element={<Shell>inhoud</Shell>} />;
const menu = () => screen.getByRole('complementary', { name: 'Account' });

afterEach(() => vi.unstubAllGlobals());

describe('OrganisationSwitcher in the sidebar', () => {
  it('is not there for a person of one organisation', async () => {
    membershipServer({ organisations: [VOORBEELDSTAD] });
    renderAt('/permissies', page);
    await screen.findByText('Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad');
    expect(screen.queryByLabelText('Wissel van organisatie')).toBeNull();
  });

  it('is not there when the server says nothing of organisations (a server from before)', async () => {
    membershipServer({
      extra: (url) =>
        url.pathname === '/api/users/whoami'
          ? {
              status: 200,
              body: {
                active: true,
                identity: { id: 'me', traits: { email: 'a@b.nl', name: { first: 'A', last: 'B' } }, credentials: [] },
                permissions: [],
                activeOrg: { id: 'dego', label: 'DEGO', subdivisions: [] },
                isAdmin: false,
                authenticator_assurance_level: 'aal1',
                aal2Required: false,
              },
            }
          : undefined,
    });
    renderAt('/permissies', page);
    await screen.findByText('Je bent ingelogd voor DEGO');
    expect(screen.queryByLabelText('Wissel van organisatie')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('lists the organisations by label with the active one chosen, and switches only on the button', async () => {
    const { calls } = membershipServer();
    const { container } = renderAt('/permissies', page);
    const select = await screen.findByLabelText('Wissel van organisatie');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Gemeente Voorbeeldstad', 'DEGO']);
    expect(select).toHaveValue('voorbeeldstad');
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.selectOptions(select, 'DEGO');
    expect(calls.some((call) => call.url.pathname === '/api/users/active-organisation')).toBe(false);
    await userEvent.click(within(menu()).getByRole('button', { name: 'Wisselen' }));

    expect(await screen.findByText('Je bent ingelogd voor DEGO')).toBeInTheDocument();
    expect(screen.getByText('Je bent nu ingelogd voor DEGO.')).toBeInTheDocument();
    expect(screen.getByLabelText('Wissel van organisatie')).toHaveValue('dego');
    // Not an administrator in DEGO: the dashboard link goes.
    expect(screen.queryByRole('link', { name: 'Administratie dashboard' })).toBeNull();
    const put = calls.find((call) => call.url.pathname === '/api/users/active-organisation');
    expect(put?.init?.method).toBe('PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({ organisation: 'dego' });

    await userEvent.selectOptions(screen.getByLabelText('Wissel van organisatie'), 'Gemeente Voorbeeldstad');
    await userEvent.click(within(menu()).getByRole('button', { name: 'Wisselen' }));
    expect(await screen.findByText('Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad')).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Hoofdmenu' })).getByRole('link', {
        name: 'Administratie dashboard',
      }),
    ).toBeInTheDocument();
  });

  it('sends nothing when the chosen organisation is the active one already', async () => {
    const { calls } = membershipServer();
    renderAt('/permissies', page);
    await screen.findByLabelText('Wissel van organisatie');
    await userEvent.click(within(menu()).getByRole('button', { name: 'Wisselen' }));
    expect(calls.some((call) => call.url.pathname === '/api/users/active-organisation')).toBe(false);
  });

  it("shows the server's Dutch reason for a refusal, else its own text, and stays with the organisation", async () => {
    membershipServer({
      refuse: (url) =>
        url.pathname === '/api/users/active-organisation'
          ? { status: 404, body: { error: { id: 'not_member', message: 'Je bent geen lid meer van DEGO.' } } }
          : undefined,
    });
    renderAt('/permissies', page);
    await userEvent.selectOptions(await screen.findByLabelText('Wissel van organisatie'), 'DEGO');
    await userEvent.click(within(menu()).getByRole('button', { name: 'Wisselen' }));
    expect(await screen.findByText('Je bent geen lid meer van DEGO.')).toBeInTheDocument();
    expect(screen.getByText('Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad')).toBeInTheDocument();

    vi.unstubAllGlobals();
    membershipServer({
      refuse: (url) => (url.pathname === '/api/users/active-organisation' ? { status: 500 } : undefined),
    });
    await userEvent.click(within(menu()).getByRole('button', { name: 'Wisselen' }));
    await waitFor(() => expect(screen.getByText(SWITCH_FAILED)).toBeInTheDocument());
  });

  it('still says so when the switch leaves the overview of the organisation the person administers', async () => {
    membershipServer({
      extra: (url, init) =>
        url.pathname === '/api/users' && init?.method === 'GET' ? { status: 200, body: [] } : undefined,
    });
    renderAt(
      '/',
      <>
        <Route path="/" element={<OverviewScreen />} />
        <Route path="/permissies" element={<Shell>Datavoorzieningen-pagina</Shell>} />
      </>,
    );
    await screen.findByRole('heading', { name: 'Overzicht' });
    await userEvent.selectOptions(screen.getByLabelText('Wissel van organisatie'), 'DEGO');
    await userEvent.click(within(menu()).getByRole('button', { name: 'Wisselen' }));
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
    expect(await screen.findByText('Je bent nu ingelogd voor DEGO.')).toBeInTheDocument();
  });
});
