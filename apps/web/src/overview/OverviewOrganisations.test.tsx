import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-axe';
import { fakeNetwork, renderAt } from '../test-support';
import type { PortalUser } from '../api/users-api';
import { usersApiAnswer, whoamiOf } from '../test-users-api';
import OverviewScreen from './OverviewScreen';

// The overview of an administrator whose organisation has guests (accounts another organisation keeps) and invited
// people (docs/organisations.md). The rows of the organisation's own people are OverviewScreen.test.tsx's.

const me = whoamiOf();

const role = (roleId: string, label: string) => ({
  namespace: 'subdivisions',
  object: `${roleId}_voorbeeldstad`,
  relation: 'issuer',
  label,
  roleId,
});

const person = (id: string, first: string, email: string, extra: Record<string, unknown> = {}) => ({
  id,
  schema_id: 'default',
  state: 'active',
  traits: { email, name: { first, last: 'Test' } },
  created_at: '2026-03-01T12:00:00Z',
  credentials: ['password', 'totp'],
  verified: true,
  permissions: [role('ruimte', 'Ruimte en wonen')],
  userType: { id: 'analyst', label: 'Medewerker' },
  home: true,
  ...extra,
});

const list = [
  person('me', 'Bea', 'bea@voorbeeldstad.nl', { userType: { id: 'administrator', label: 'Beheerder' } }),
  person('g1', 'Gijs', 'gijs@dego.nl', {
    home: false,
    credentials: [],
    permissions: [
      { namespace: 'organizations', object: 'voorbeeldstad', relation: 'issuer', label: 'Gemeente Voorbeeldstad' },
      role('ruimte', 'Ruimte en wonen'),
    ],
  }),
  person('i1', 'Ina', 'ina@dijkstad.nl', {
    home: false,
    credentials: [],
    permissions: [role('financien', 'Financiën')],
    invitation: { id: 'inv-1', expiresAt: '2026-11-26T12:00:00.000Z' },
  }),
];

const routes = <Route path="/" element={<OverviewScreen />} />;

function network(extra?: (url: URL, init?: RequestInit) => { status: number; body?: unknown } | undefined) {
  return fakeNetwork((url, init) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (url.pathname === '/api/users/whoami') return { status: 200, body: me };
    if (url.pathname === '/api/config') return { status: 200, body: { title: 'x', description: 'x' } };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    return usersApiAnswer(list as unknown as PortalUser[], url, init);
  });
}

/** The row of the person with this address (shown in parts, so that it wraps only at sensible places). */
const rowOf = async (email: string) =>
  (await screen.findAllByRole('row')).find((row) => within(row).queryByRole('cell', { name: email }))!;
const actionsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('button')
    .map((button) => button.textContent);
const writes = (calls: ReturnType<typeof fakeNetwork>) =>
  calls
    .filter((call) => call.init?.method && call.init.method !== 'GET' && call.init.method !== 'HEAD')
    .map((call) => `${call.init?.method} ${call.url.pathname}${call.url.search}`);

afterEach(() => vi.unstubAllGlobals());

describe('OverviewScreen with guests and invited people', () => {
  it("shows an invited person as 'Uitgenodigd' with the invited data roles; one action withdraws it", async () => {
    const calls = network((url, init) =>
      url.pathname === '/api/invitations/inv-1' && init?.method === 'DELETE' ? { status: 204 } : undefined,
    );
    const { container } = renderAt('/', routes);
    const row = await rowOf('ina@dijkstad.nl');
    const cells = within(row).getAllByRole('cell');
    expect(within(cells[0]!).getByText('Uitgenodigd')).toBeInTheDocument();
    expect(cells[0]).toHaveTextContent('Geldig tot 26 november 2026');
    expect(cells[3]).toHaveTextContent('Financiën');
    expect(actionsOf(row)).toEqual(['Opnieuw versturen', 'Uitnodiging intrekken']);

    await userEvent.click(within(row).getByRole('button', { name: 'Uitnodiging intrekken: Ina Test' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Uitnodiging intrekken' });
    expect(dialog).toHaveTextContent(
      'Weet je zeker dat je de uitnodiging van Ina Test (ina@dijkstad.nl) wilt intrekken? De ' +
        'uitnodiging vervalt dan en Ina Test wordt geen lid van Gemeente Voorbeeldstad.',
    );
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Intrekken' }));
    expect(await screen.findByText('Uitnodiging ingetrokken.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(writes(calls)).toEqual(['DELETE /api/invitations/inv-1']);
    // The list is fetched again.
    expect(calls.filter((call) => call.url.pathname === '/api/users' && call.init?.method === 'GET').length).toBe(2);
  });

  it('sends an invitation again after asking, and says so; a refusal is said in the dialog', async () => {
    let answer: { status: number; body: unknown } = {
      status: 429,
      body: { error: { id: 'too_many_mails', message: 'Er zijn te veel e-mails verstuurd.' } },
    };
    const calls = network((url, init) =>
      url.pathname === '/api/invitations/inv-1/resend' && init?.method === 'POST' ? answer : undefined,
    );
    const { container } = renderAt('/', routes);
    const row = await rowOf('ina@dijkstad.nl');
    await userEvent.click(within(row).getByRole('button', { name: 'Opnieuw versturen van de uitnodiging: Ina Test' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Uitnodiging opnieuw versturen' });
    expect(dialog).toHaveTextContent(
      'Weet je zeker dat je de uitnodiging van Ina Test (ina@dijkstad.nl) opnieuw wilt versturen? Ina Test krijgt ' +
        'een nieuwe e-mail, en de uitnodiging is daarna weer even lang geldig als de eerste keer.',
    );
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Versturen' }));
    expect(await within(dialog).findByText('Er zijn te veel e-mails verstuurd.')).toBeInTheDocument();
    answer = { status: 200, body: { id: 'inv-1', expiresAt: '2026-12-03T12:00:00.000Z' } };
    await userEvent.click(within(dialog).getByRole('button', { name: 'Versturen' }));
    expect(await screen.findByText('Uitnodiging opnieuw verstuurd naar ina@dijkstad.nl.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(writes(calls)).toEqual(['POST /api/invitations/inv-1/resend', 'POST /api/invitations/inv-1/resend']);
  });

  it("shows the server's Dutch reason when withdrawing fails", async () => {
    network((url, init) =>
      url.pathname === '/api/invitations/inv-1' && init?.method === 'DELETE'
        ? {
            status: 404,
            body: { error: { id: 'invitation_not_found', message: 'Deze uitnodiging bestaat niet meer.' } },
          }
        : undefined,
    );
    renderAt('/', routes);
    await userEvent.click(
      within(await rowOf('ina@dijkstad.nl')).getByRole('button', { name: 'Uitnodiging intrekken: Ina Test' }),
    );
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Intrekken' }));
    expect(await screen.findByText('Deze uitnodiging bestaat niet meer.')).toBeInTheDocument();
  });

  it("offers a guest only 'Bewerken' and 'Verwijderen', and says the account is another organisation's", async () => {
    network();
    renderAt('/', routes);
    const row = await rowOf('gijs@dego.nl');
    expect(actionsOf(row)).toEqual(['Bewerken', 'Verwijderen']);
    expect(within(row).getAllByRole('cell')[0]).toHaveTextContent('Gijs TestAccount van een andere organisatieLogboek');
    expect(within(row).queryByText('Uitgenodigd')).toBeNull();
  });

  it("edits only a guest's data roles and administrator flag: names and address read-only, person unsent", async () => {
    const calls = network((_url, init) =>
      init?.method === 'PUT' || init?.method === 'DELETE' ? { status: 200, body: {} } : undefined,
    );
    const { container } = renderAt('/', routes);
    await userEvent.click(within(await rowOf('gijs@dego.nl')).getByRole('button', { name: 'Bewerken: Gijs Test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Gebruiker bewerken' });
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(dialog).toHaveTextContent(
      'Dit account hoort bij een andere organisatie. Alleen die organisatie past de naam en het ' +
        'e-mailadres aan. Hier pas je de datarollen en de beheerdersrol bij Gemeente Voorbeeldstad aan.',
    );
    expect([...dialog.querySelectorAll('dl dt, dl dd')].map((node) => node.textContent)).toEqual([
      'E-mailadres',
      'gijs@dego.nl',
      'Voornaam',
      'Gijs',
      'Achternaam',
      'Test',
    ]);
    expect(within(dialog).getByLabelText('Ruimte en wonen')).toBeChecked();
    expect(within(dialog).getByLabelText('Administrator')).not.toBeChecked();
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(within(dialog).getByLabelText('Financiën'));
    await userEvent.click(within(dialog).getByLabelText('Administrator'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }));
    expect(await screen.findByText('Gebruiker aangepast')).toBeInTheDocument();
    expect(writes(calls)).toEqual(['PUT /api/users/g1/permissions']);
    const granted = calls.find((call) => call.url.pathname === '/api/users/g1/permissions');
    expect(JSON.parse(String(granted?.init?.body))).toEqual([
      { namespace: 'subdivisions', object: 'ruimte_voorbeeldstad', relation: 'issuer' },
      { namespace: 'subdivisions', object: 'financien_voorbeeldstad', relation: 'issuer' },
      { namespace: 'organizations', object: 'voorbeeldstad', relation: 'admin' },
    ]);
  });

  it('sends no change of a member of the organisation either when only the data roles change', async () => {
    const calls = network((_url, init) =>
      init?.method === 'PUT' || init?.method === 'DELETE' ? { status: 200, body: {} } : undefined,
    );
    renderAt('/', routes);
    await userEvent.click(
      within(await rowOf('bea@voorbeeldstad.nl')).getByRole('button', { name: 'Bewerken: Bea Test' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Gebruiker bewerken' });
    expect(within(dialog).getByLabelText('Voornaam')).toHaveValue('Bea');
    await userEvent.click(within(dialog).getByLabelText('Financiën'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }));
    expect(await screen.findByText('Gebruiker aangepast')).toBeInTheDocument();
    // Only the data roles go out, in their one call.
    expect(writes(calls)).toEqual([expect.stringMatching(/^PUT \/api\/users\/[\w-]+\/permissions$/)]);
  });

  it('removes a guest from this organisation only, after a confirmation that says the account stays', async () => {
    const calls = network((url, init) =>
      url.pathname === '/api/users' && init?.method === 'DELETE' ? { status: 204 } : undefined,
    );
    renderAt('/', routes);
    await userEvent.click(within(await rowOf('gijs@dego.nl')).getByRole('button', { name: 'Verwijderen: Gijs Test' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Gebruiker uit je organisatie verwijderen' });
    expect(dialog).toHaveTextContent(
      'Weet je zeker dat je Gijs Test uit je organisatie wilt verwijderen? Het account blijft bestaan ' +
        'voor de andere organisatie(s).',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verwijderen' }));
    expect(await screen.findByText('Gebruiker uit je organisatie verwijderd.')).toBeInTheDocument();
    expect(writes(calls)).toEqual(['DELETE /api/users?id=g1']);
  });

  it('says an invitation was sent (202) for a new user with the address of another organisation’s user', async () => {
    const calls = network((url, init) => {
      if (url.pathname === '/api/users' && init?.method === 'HEAD') return { status: 200 };
      if (url.pathname === '/api/users' && init?.method === 'POST')
        return { status: 202, body: { invitation: { id: 'inv-2', expiresAt: '2026-11-26T12:00:00.000Z' } } };
      return undefined;
    });
    renderAt('/', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Nieuwe gebruiker toevoegen' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('E-mailadres', { exact: false }), 'Noor@Dego.nl');
    await userEvent.tab();
    await within(dialog).findByText('Deze gebruiker heeft al een account.');
    await userEvent.click(within(dialog).getByLabelText('Ruimte en wonen'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Toevoegen' }));
    expect(
      await screen.findByText('Uitnodiging verstuurd. noor@dego.nl moet de uitnodiging eerst accepteren.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Bestaande gebruiker aangepast')).toBeNull();
    expect(writes(calls)).toEqual(['POST /api/users']);
  });
});
