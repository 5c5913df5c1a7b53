import { screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Address, fakeNetwork, holdBack, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import { whoamiOf } from '../test-users-api';
import ServicesScreen from './ServicesScreen';

const me = (overrides: Record<string, unknown> = {}) =>
  whoamiOf({
    identity: {
      id: 'me',
      traits: { email: 'anna@voorbeeldstad.nl', name: { first: 'Anna', last: 'Analist' } },
      credentials: ['password', 'totp'],
    },
    isAdmin: false,
    ...overrides,
  });

const services = {
  organisation: { id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad' },
  dataRoles: [
    { roleId: 'ruimte', label: 'Ruimte en wonen' },
    { roleId: 'financien', label: 'Financiën' },
  ],
  services: [
    {
      id: 'woningmarkt',
      name: 'Woningmarktmonitor',
      description: 'Cijfers over de woningmarkt van je gemeente.',
      url: 'https://woningmarkt.example.nl/',
    },
    {
      id: 'begroting',
      name: 'Begrotingsdashboard',
      description: 'De begroting en de jaarrekening per programma.',
      url: 'https://begroting.example.nl/start',
    },
  ],
};

const routes = (
  <>
    <Route path="/permissies" element={<ServicesScreen />} />
    <Route path="/login" element={<Address />} />
    <Route path="/settings/2fa-app" element={<Address />} />
  </>
);

function network(
  answer: { status: number; body?: unknown } = { status: 200, body: services },
  whoami: { status: number; body?: unknown } = { status: 200, body: me() },
) {
  return fakeNetwork((url) => {
    if (url.pathname === '/api/users/whoami') return whoami;
    if (url.pathname === '/api/config')
      return {
        status: 200,
        body: { title: 'Datavoorzieningen VNG', description: 'Datavoorziening VNG Realisatie', feedbackEmail: null },
      };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/api/services') return answer;
    return undefined;
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('ServicesScreen', () => {
  it('shows Laden… while the person is checked, then inside the page while the data services load', async () => {
    network();
    holdBack((url) => url.pathname === '/api/services');
    const { container } = renderAt('/permissies', routes);
    expect(screen.getByRole('status')).toHaveTextContent('Laden…');
    expect(screen.queryByRole('main')).toBeNull();
    const main = await screen.findByRole('main');
    expect(within(main).getByRole('heading', { level: 1, name: 'Datavoorzieningen' })).toBeInTheDocument();
    expect(within(main).getByRole('status')).toHaveTextContent('Laden…');
    await screen.findByText('Anna Analist');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the data roles and a card per data service (name, description, link) in the shared layout', async () => {
    const calls = network();
    const { container } = renderAt('/permissies', routes);
    const list = within(await screen.findByRole('main')).getByRole('list');
    expect(screen.getByRole('heading', { level: 1, name: 'Datavoorzieningen' })).toBeInTheDocument();
    expect(screen.getByText('Je datarollen: Ruimte en wonen, Financiën.')).toBeInTheDocument();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByRole('heading', { level: 2, name: 'Woningmarktmonitor' })).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Cijfers over de woningmarkt van je gemeente.')).toBeInTheDocument();
    // The link text as a screen reader reads it (jsdom's name computation drops the space before the hidden part).
    expect(within(cards[0]!).getByRole('link')).toHaveTextContent(
      /^Naar Woningmarktmonitor \(opent de datavoorziening\)$/,
    );
    expect(within(cards[0]!).getByRole('link')).toHaveAttribute('href', 'https://woningmarkt.example.nl/');
    expect(within(cards[1]!).getByRole('link')).toHaveTextContent(
      /^Naar Begrotingsdashboard \(opent de datavoorziening\)$/,
    );
    expect(within(cards[1]!).getByRole('link')).toHaveAttribute('href', 'https://begroting.example.nl/start');
    expect(screen.getByText('Anna Analist')).toBeInTheDocument();
    expect(screen.getByText('Je bent ingelogd voor Gemeente Voorbeeldstad')).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Hoofdmenu' })).getByRole('link', { name: 'Datavoorzieningen' }),
    ).toHaveAttribute('aria-current', 'page');
    expect(document.title).toBe('Datavoorzieningen – Datavoorzieningen Portaal');
    const request = calls.find((call) => call.url.pathname === '/api/services');
    expect(request?.init?.method).toBe('GET');
    expect(request?.init?.credentials).toBe('include');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('names the organisation whose data services these are', async () => {
    network();
    renderAt('/permissies', routes);
    expect(await screen.findByText('Dit zijn de datavoorzieningen van Gemeente Voorbeeldstad.')).toBeInTheDocument();
    expect(screen.queryByText(/Wissel dan van organisatie/)).toBeNull();
  });

  it("tells a person of two organisations that these are the active one's, and how to see the other's", async () => {
    const membership = { isAdmin: false, requiresAal2: false, home: false };
    const organisations = [
      { ...membership, id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad', home: true, active: true },
      { ...membership, id: 'dego', label: 'DEGO', active: false },
    ];
    network(undefined, { status: 200, body: me({ organisations }) });
    const { container } = renderAt('/permissies', routes);
    expect(
      await screen.findByText(
        'Dit zijn de datavoorzieningen van Gemeente Voorbeeldstad. Wil je die van een andere organisatie zien? ' +
          'Wissel dan van organisatie in het menu.',
      ),
    ).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('opens a service that signs in through the portal at its sign-in address', async () => {
    const signInUrl =
      'https://begroting.example.nl/login/portaal?iss=https%3A%2F%2Fportaal.example.nl%2Foidc&target_link_uri=x';
    const [plain, withSignIn] = services.services;
    network({ status: 200, body: { ...services, services: [plain, { ...withSignIn, signInUrl }] } });
    renderAt('/permissies', routes);
    const link = await screen.findByRole('link', { name: /^Naar Begrotingsdashboard/ });
    expect(link).toHaveAttribute('href', signInUrl);
    expect(screen.getByRole('link', { name: /^Naar Woningmarktmonitor/ })).toHaveAttribute(
      'href',
      'https://woningmarkt.example.nl/',
    );
  });

  it('says there is no data service yet and names no data roles when the person has none', async () => {
    network({ status: 200, body: { organisation: services.organisation, dataRoles: [], services: [] } });
    const { container } = renderAt('/permissies', routes);
    expect(
      await screen.findByText(
        'Je hebt nog geen toegang tot datavoorzieningen. Vraag de beheerder van je organisatie om een datarol.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^Je datarollen:/)).toBeNull();
    expect(within(screen.getByRole('main')).queryByRole('list')).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it("shows the organisation's services without a data-role sentence when the person has no data role", async () => {
    network({ status: 200, body: { ...services, dataRoles: [], services: services.services.slice(0, 1) } });
    renderAt('/permissies', routes);
    expect(await screen.findByRole('heading', { level: 2, name: 'Woningmarktmonitor' })).toBeInTheDocument();
    expect(screen.queryByText(/^Je datarollen:/)).toBeNull();
  });

  it('shows an error when the data services cannot be fetched', async () => {
    network({ status: 500, body: { error: { code: 500, reason: 'internal' } } });
    const { container } = renderAt('/permissies', routes);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan bij het ophalen van je datavoorzieningen. Probeer het later nog eens.',
    );
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText(/^Je datarollen:/)).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('sends a person without a session to /login', async () => {
    network(
      { status: 401, body: { error: { code: 401 } } },
      { status: 401, body: { error: { id: 'session_inactive', code: 401 } } },
    );
    renderAt('/permissies', routes);
    expect(await screen.findByText('Adres: /login')).toBeInTheDocument();
  });

  it('sends a session that still needs its second factor to the code step, or to link an app if none is', async () => {
    network(
      { status: 403, body: { error: { id: 'session_aal2_required', code: 403 } } },
      { status: 200, body: me({ authenticator_assurance_level: 'aal1' }) },
    );
    renderAt('/permissies', routes);
    // Back to the page afterwards.
    const back = encodeURIComponent(`${window.location.origin}/permissies`);
    expect(await screen.findByText(`Adres: /login?aal=aal2&return_to=${back}`)).toBeInTheDocument();
    vi.unstubAllGlobals();
    network(
      { status: 403, body: { error: { id: 'session_aal2_required', code: 403 } } },
      {
        status: 200,
        body: me({ authenticator_assurance_level: 'aal1', identity: { ...me().identity, credentials: ['password'] } }),
      },
    );
    renderAt('/permissies', routes);
    await waitFor(() => expect(screen.getByText('Adres: /settings/2fa-app')).toBeInTheDocument());
  });

  it('lets a member of an organisation without a second-factor rule in at aal1', async () => {
    network(undefined, {
      status: 200,
      body: me({
        authenticator_assurance_level: 'aal1',
        aal2Required: false,
        identity: { ...me().identity, credentials: ['password'] },
      }),
    });
    renderAt('/permissies', routes);
    expect(await screen.findByText('Je datarollen: Ruimte en wonen, Financiën.')).toBeInTheDocument();
  });
});
