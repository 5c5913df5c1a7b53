import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeViolations } from '../test-axe';
import { errorSummary, fakeNetwork, renderAt, summaryItems } from '../test-support';
import ProgrammeServicesScreen from './ProgrammeServicesScreen';
import type { OrganisationSummary } from './programme-api';
import type { ProgrammeService } from './services-api';
import { PROGRAMME_ADMINISTRATOR, refusal } from './test-programme';

const VOORBEELDSTAD: OrganisationSummary = {
  id: 'voorbeeldstad',
  label: 'Gemeente Voorbeeldstad',
  requiresAal2: true,
  active: true,
  dataRoles: [{ id: 'ruimte', label: 'Ruimte en wonen', holders: 5 }],
  members: 12,
  administrators: 2,
  pendingInvitations: 0,
  lastSignIn: null,
};
const DEGO: OrganisationSummary = { ...VOORBEELDSTAD, id: 'dego', label: 'DEGO', dataRoles: [] };

const WIJKMONITOR: ProgrammeService = {
  id: 'wijkmonitor',
  name: 'Wijkmonitor',
  description: '',
  url: 'https://wijkmonitor.example.nl/',
  access: { organisations: ['dego'], dataRoles: ['ruimte_voorbeeldstad'] },
  forwardAuth: true,
  oidc: {
    clientId: 'wijkmonitor',
    type: 'confidential',
    redirectUris: ['https://wijkmonitor.example.nl/callback'],
    postLogoutRedirectUris: [],
  },
};
const KAARTEN: ProgrammeService = {
  id: 'kaarten',
  name: 'Kaarten',
  description: 'Kaarten van de wijk',
  url: 'https://kaarten.example.nl/',
  access: { organisations: ['voorbeeldstad'], dataRoles: [] },
  forwardAuth: true,
};

const SECRET = 'aThg1sgfM__AQ-l_ewxkgrGF-R0c7EQm6Tk0Imc_Mks';

/**
 * The Users API of the data services as programme/programme-services.ts answers: a taken code is 409, a client id of
 * another service 400 with the catalogue's words, and a new confidential client gets a secret once.
 */
function servicesServer() {
  const services = [structuredClone(WIJKMONITOR), structuredClone(KAARTEN)];
  const calls = fakeNetwork((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/users/whoami') return { status: 200, body: PROGRAMME_ADMINISTRATOR };
    if (url.pathname === '/api/users/admins') return { status: 200, body: [] };
    if (url.pathname === '/api/programme/organisations')
      return { status: 200, body: { organisations: [DEGO, VOORBEELDSTAD] } };
    if (url.pathname === '/api/programme/services' && method === 'GET') return { status: 200, body: { services } };
    const body = init?.body ? (JSON.parse(String(init.body)) as ProgrammeService) : undefined;
    if (!body) return undefined;
    if (services.some((s) => s.id !== body.id && s.oidc && s.oidc.clientId === body.oidc?.clientId))
      return refusal(
        400,
        'invalid_request',
        'Een andere datavoorziening gebruikt deze client-id al.',
        'The data service is not valid at oidc.clientId.',
      );
    if (method === 'POST') {
      if (services.some((s) => s.id === body.id)) return refusal(409, 'service_exists', 'Bestaat al.');
      services.push(body);
      return {
        status: 201,
        body: { service: body, ...(body.oidc?.type === 'confidential' ? { clientSecret: SECRET } : {}) },
      };
    }
    if (method === 'PUT') {
      services[services.findIndex((s) => s.id === body.id)] = body;
      return { status: 200, body: { service: body } };
    }
    return undefined;
  });
  return { calls, services };
}

const routes = <Route path="/programmabeheer/datavoorzieningen" element={<ProgrammeServicesScreen />} />;
const table = () => screen.getByRole('table', { name: 'Datavoorzieningen van het programma' });
const dialog = (name: string) => screen.getByRole('dialog', { name });
const sent = (calls: ReturnType<typeof fakeNetwork>, method: string) =>
  calls.filter((call) => call.init?.method === method).map((call) => JSON.parse(String(call.init?.body)) as unknown);

afterEach(() => vi.unstubAllGlobals());

describe('ProgrammeServicesScreen', () => {
  it('lists the data services by name with who may use them and how they are connected', async () => {
    servicesServer();
    const { container } = renderAt('/programmabeheer/datavoorzieningen', routes);
    await screen.findByRole('table', { name: 'Datavoorzieningen van het programma' });
    await waitFor(() => expect(document.title).toBe('Datavoorzieningen – Programmabeheer – Datavoorzieningen Portaal'));
    const nav = screen.getByRole('navigation', { name: 'Programmabeheer' });
    expect(within(nav).getByRole('link', { name: 'Datavoorzieningen' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Organisaties' })).not.toHaveAttribute('aria-current');
    const [, kaarten, wijkmonitor] = within(table()).getAllByRole('row');
    expect(within(kaarten!).getAllByRole('cell')[1]).toHaveTextContent('Alle leden van Gemeente Voorbeeldstad');
    expect(within(kaarten!).queryByRole('button', { name: 'Nieuw geheim: Kaarten' })).toBeNull();
    const [, who, connection] = within(wijkmonitor!).getAllByRole('cell');
    expect(
      within(who!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Alle leden van DEGO', 'Ruimte en wonen van Gemeente Voorbeeldstad']);
    expect(
      within(connection!)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Forward-auth', 'OpenID Connect: wijkmonitor (vertrouwelijk)']);
    expect(within(wijkmonitor!).getByRole('button', { name: 'Nieuw geheim: Wijkmonitor' })).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('adds a service with an OpenID Connect client and then shows its secret once', async () => {
    const user = userEvent.setup();
    const { calls } = servicesServer();
    renderAt('/programmabeheer/datavoorzieningen', routes);
    const add = await screen.findByRole('button', { name: 'Datavoorziening toevoegen' });
    await user.click(add);
    const form = dialog('Datavoorziening toevoegen');
    await user.type(within(form).getByLabelText('Code'), 'buurtmonitor');
    await user.type(within(form).getByLabelText('Naam'), 'Buurtmonitor');
    await user.type(within(form).getByLabelText('Adres'), 'https://buurt.example.nl/');
    await user.click(within(within(form).getByRole('group', { name: 'DEGO' })).getByLabelText('Alle leden'));
    await user.click(within(form).getByLabelText('Ruimte en wonen'));
    await user.click(within(form).getByLabelText('Forward-auth'));
    await user.click(within(form).getByLabelText('Inloggen met OpenID Connect'));
    await user.type(within(form).getByLabelText('Client-id'), 'buurt');
    await user.type(
      within(form).getByLabelText("Redirect-URI's"),
      'https://buurt.example.nl/callback{Enter}{Enter}https://buurt.example.nl/terug',
    );
    await user.type(within(form).getByLabelText('Back-channel-logout-URI (optioneel)'), 'https://buurt.example.nl/bc');
    await user.click(within(form).getByRole('button', { name: 'Toevoegen' }));

    const secret = await screen.findByRole('dialog', { name: 'Clientgeheim van Buurtmonitor' });
    expect(within(secret).getByLabelText('Clientgeheim')).toHaveValue(SECRET);
    expect(sent(calls, 'POST')).toEqual([
      {
        id: 'buurtmonitor',
        name: 'Buurtmonitor',
        description: '',
        url: 'https://buurt.example.nl/',
        access: { organisations: ['dego'], dataRoles: ['ruimte_voorbeeldstad'] },
        forwardAuth: false,
        oidc: {
          clientId: 'buurt',
          type: 'confidential',
          redirectUris: ['https://buurt.example.nl/callback', 'https://buurt.example.nl/terug'],
          postLogoutRedirectUris: [],
          backchannelLogoutUri: 'https://buurt.example.nl/bc',
        },
      },
    ]);
    // The toast stands outside the modal, which hides the rest of the page from assistive technology meanwhile.
    expect(screen.getByText('Datavoorziening Buurtmonitor toegevoegd.')).toBeInTheDocument();
    // Closed, the focus is back on what started the errand: the form's own button is gone.
    await user.click(within(secret).getByRole('button', { name: 'Sluiten' }));
    await waitFor(() => expect(add).toHaveFocus());
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(within(table()).getByRole('button', { name: 'Nieuw geheim: Buurtmonitor' })).toBeInTheDocument();
  });

  it('checks the form before sending: access, addresses and the client', async () => {
    const user = userEvent.setup();
    const { calls } = servicesServer();
    renderAt('/programmabeheer/datavoorzieningen', routes);
    await user.click(await screen.findByRole('button', { name: 'Datavoorziening toevoegen' }));
    const form = dialog('Datavoorziening toevoegen');
    await user.type(within(form).getByLabelText('Code'), 'buurt');
    await user.type(within(form).getByLabelText('Naam'), 'Buurt');
    await user.type(within(form).getByLabelText('Adres'), 'ftp://buurt.example.nl/');
    await user.click(within(form).getByLabelText('Inloggen met OpenID Connect'));
    await user.type(within(form).getByLabelText('Client-id'), 'met spatie');
    await user.type(within(form).getByLabelText('Adressen na uitloggen (optioneel)'), 'https://goed.nl/{Enter}fout');
    await user.click(within(form).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    expect(summaryItems()).toEqual([
      'Vul een adres in dat begint met https:// of http://.',
      'Kies minstens één organisatie of datarol die de datavoorziening mag gebruiken.',
      'Gebruik voor de client-id letters, cijfers, punten, koppeltekens en _, hoogstens 64 tekens.',
      'Vul minstens één redirect-URI in.',
      'Vul op elke regel een adres in dat begint met https:// of http://.',
    ]);
    expect(
      within(form).getByRole('group', { name: 'Wie mag de datavoorziening gebruiken?' }),
    ).toHaveAccessibleDescription('Kies minstens één organisatie of datarol die de datavoorziening mag gebruiken.');
    expect(sent(calls, 'POST')).toEqual([]);
  });

  it("shows the server's refusals at their fields: a taken code, another service's client id", async () => {
    const user = userEvent.setup();
    const { calls } = servicesServer();
    renderAt('/programmabeheer/datavoorzieningen', routes);
    await user.click(await screen.findByRole('button', { name: 'Datavoorziening toevoegen' }));
    const form = dialog('Datavoorziening toevoegen');
    await user.type(within(form).getByLabelText('Code'), 'kaarten');
    await user.type(within(form).getByLabelText('Naam'), 'Kaarten 2');
    await user.type(within(form).getByLabelText('Adres'), 'https://kaarten2.example.nl/');
    await user.click(within(form).getByLabelText('Alle leden', { selector: '#toegang-dego' }));
    await user.click(within(form).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(summaryItems()).toEqual(['Er bestaat al een datavoorziening met deze code.']));
    expect(within(form).getByLabelText('Code')).toHaveAccessibleDescription(
      expect.stringContaining('Er bestaat al een datavoorziening met deze code.'),
    );

    await user.clear(within(form).getByLabelText('Code'));
    await user.type(within(form).getByLabelText('Code'), 'kaarten-twee');
    await user.click(within(form).getByLabelText('Inloggen met OpenID Connect'));
    await user.type(within(form).getByLabelText('Client-id'), 'wijkmonitor');
    await user.type(within(form).getByLabelText("Redirect-URI's"), 'https://kaarten2.example.nl/cb');
    await user.click(within(form).getByRole('button', { name: 'Toevoegen' }));
    await waitFor(() => expect(summaryItems()).toEqual(['Een andere datavoorziening gebruikt deze client-id al.']));
    await waitFor(() => expect(errorSummary()).toHaveFocus());
    expect(sent(calls, 'POST')).toHaveLength(2);
    expect(screen.queryByRole('dialog', { name: /Clientgeheim/ })).toBeNull();
  });

  it('changes a service with its code fixed, and closes without a secret when none was made', async () => {
    const user = userEvent.setup();
    const { calls } = servicesServer();
    renderAt('/programmabeheer/datavoorzieningen', routes);
    const change = await screen.findByRole('button', { name: 'Wijzigen: Wijkmonitor' });
    await user.click(change);
    const form = dialog('Datavoorziening wijzigen');
    expect(within(form).getByLabelText('Code')).toHaveAttribute('readonly');
    expect(within(form).getByLabelText("Redirect-URI's")).toHaveValue('https://wijkmonitor.example.nl/callback');
    expect(within(form).getByLabelText('Ruimte en wonen')).toBeChecked();
    await user.clear(within(form).getByLabelText('Naam'));
    await user.type(within(form).getByLabelText('Naam'), 'Wijkmonitor 2');
    await user.click(within(form).getByRole('button', { name: 'Opslaan' }));
    await screen.findByText('Datavoorziening Wijkmonitor 2 gewijzigd.');
    expect(sent(calls, 'PUT')).toEqual([{ ...WIJKMONITOR, name: 'Wijkmonitor 2' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(within(table()).getByRole('button', { name: 'Wijzigen: Wijkmonitor 2' })).toHaveFocus());
  });
});
