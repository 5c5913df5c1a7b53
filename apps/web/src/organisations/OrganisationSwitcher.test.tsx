import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Shell } from '../layout/Shell';
import OverviewScreen from '../overview/OverviewScreen';
import { axeViolations } from '../test-axe';
import { renderAt } from '../test-support';
import { usersApiAnswer } from '../test-users-api';
import { DEGO, membershipServer, VOORBEELDSTAD } from './membership-fixtures';
import { SWITCH_FAILED } from './use-memberships';

const page = <Route path="/permissies" element={<Shell>inhoud</Shell>} />;
const menu = () => screen.getByRole('complementary', { name: 'Account' });
/** The switcher's choice of the organisation with this name. */
const choice = (name: string) =>
  within(within(menu()).getByRole('group', { name: 'Wissel van organisatie' })).getByRole('radio', { name });

afterEach(() => vi.unstubAllGlobals());

describe('OrganisationSwitcher in the sidebar', () => {
  it('is not there for a person of one organisation', async () => {
    membershipServer({ organisations: [VOORBEELDSTAD] });
    renderAt('/permissies', page);
    await screen.findByText('Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad');
    expect(screen.queryByRole('group', { name: 'Wissel van organisatie' })).toBeNull();
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
    expect(screen.queryByRole('group', { name: 'Wissel van organisatie' })).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('lists the organisations by whole label, the active one chosen, and switches only on the button', async () => {
    const { calls } = membershipServer();
    const { container } = renderAt('/permissies', page);
    const switcher = await screen.findByRole('group', { name: 'Wissel van organisatie' });
    expect(
      within(switcher)
        .getAllByRole('radio')
        .map((radio) => radio.closest('div')?.textContent),
    ).toEqual(['Gemeente Voorbeeldstad', 'DEGO']);
    expect(within(switcher).getByRole('radio', { name: 'Gemeente Voorbeeldstad' })).toBeChecked();
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(within(switcher).getByRole('radio', { name: 'DEGO' }));
    expect(calls.some((call) => call.url.pathname === '/api/users/active-organisation')).toBe(false);
    await userEvent.click(within(menu()).getByRole('button', { name: 'Wisselen' }));

    expect(await screen.findByText('Je bent ingelogd voor DEGO')).toBeInTheDocument();
    expect(screen.getByText('Je bent nu ingelogd voor DEGO.')).toBeInTheDocument();
    expect(choice('DEGO')).toBeChecked();
    // Not an administrator in DEGO: the dashboard link goes.
    expect(screen.queryByRole('link', { name: 'Administratie dashboard' })).toBeNull();
    const put = calls.find((call) => call.url.pathname === '/api/users/active-organisation');
    expect(put?.init?.method).toBe('PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({ organisation: 'dego' });

    await userEvent.click(choice('Gemeente Voorbeeldstad'));
    await userEvent.click(within(menu()).getByRole('button', { name: 'Wisselen' }));
    expect(await screen.findByText('Je bent ingelogd als beheerder voor Gemeente Voorbeeldstad')).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Hoofdmenu' })).getByRole('link', {
        name: 'Administratie dashboard',
      }),
    ).toBeInTheDocument();
  });

  it('shows a long name whole, as the text of its choice, not cut to the width of a list', async () => {
    const long = 'Gemeenschappelijke Regeling Gegevensdiensten Noord-Holland Noord';
    membershipServer({ organisations: [VOORBEELDSTAD, { ...DEGO, id: 'grgnhn', label: long }] });
    const { container } = renderAt('/permissies', page);
    await screen.findByRole('group', { name: 'Wissel van organisatie' });
    expect(within(menu()).queryByRole('combobox')).toBeNull();
    expect(choice(long)).not.toBeChecked();
    expect(within(menu()).getByText(long, { selector: 'label' })).toBeVisible();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('sends nothing when the chosen organisation is the active one already', async () => {
    const { calls } = membershipServer();
    renderAt('/permissies', page);
    await screen.findByRole('group', { name: 'Wissel van organisatie' });
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
    await screen.findByRole('group', { name: 'Wissel van organisatie' });
    await userEvent.click(choice('DEGO'));
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
      extra: (url, init) => usersApiAnswer([], url, init),
    });
    renderAt(
      '/',
      <>
        <Route path="/" element={<OverviewScreen />} />
        <Route path="/permissies" element={<Shell>Datavoorzieningen-pagina</Shell>} />
      </>,
    );
    await screen.findByRole('heading', { name: 'Overzicht' });
    await userEvent.click(choice('DEGO'));
    await userEvent.click(within(menu()).getByRole('button', { name: 'Wisselen' }));
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
    expect(await screen.findByText('Je bent nu ingelogd voor DEGO.')).toBeInTheDocument();
  });
});
