import type { ReactNode } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Address, answerLater, fakeNetwork, renderAt, silent, unreachable } from '../test-support';
import { axeViolations } from '../test-axe';
import LoginScreen from './LoginScreen';
import { PageLoader } from '../layout/load-page';

// jsdom loads no pages: the screen's ways out of the app are recorded instead.
const loadPage = vi.fn();
const Login = () => (
  <PageLoader value={loadPage}>
    <LoginScreen />
  </PageLoader>
);

const node = (
  name: string,
  type: string,
  group: string,
  label?: { id: number; text: string; context?: unknown },
  value?: string,
) => ({
  type: 'input',
  group,
  attributes: { node_type: 'input', name, type, value, required: true, disabled: false },
  messages: [] as unknown[],
  meta: label ? { label: { ...label, type: 'info' } } : {},
});

const loginFlow = (aal: 'aal1' | 'aal2', messages?: unknown[]) => ({
  id: 'f1',
  type: 'browser',
  requested_aal: aal,
  state: 'choose_method',
  ui: {
    action: 'http://localhost:3000/self-service/login?flow=f1',
    method: 'POST',
    messages,
    nodes:
      aal === 'aal1'
        ? [
            node('csrf_token', 'hidden', 'default', undefined, 'csrf'),
            node('identifier', 'text', 'default', {
              id: 1070002,
              text: 'E-Mail',
              context: { title: 'E-Mail', name: 'traits.email' },
            }),
            node('password', 'password', 'password', { id: 1070001, text: 'Password' }),
            node('method', 'submit', 'password', { id: 1010022, text: 'Sign in with password' }, 'password'),
          ]
        : [
            node('csrf_token', 'hidden', 'default', undefined, 'csrf'),
            node('totp_code', 'text', 'totp', { id: 1010006, text: 'Authentication code' }),
            node('method', 'submit', 'totp', { id: 1010009, text: 'Use Authenticator' }, 'totp'),
          ],
  },
});

const routes = (
  <>
    <Route path="/login" element={<Login />} />
    <Route path="/admin-login" element={<Login />} />
    <Route path="/" element={<p>Overzicht-pagina</p>} />
    <Route path="/settings/2fa-app" element={<p>Koppel-pagina</p>} />
    <Route path="/permissies" element={<p>Datavoorzieningen-pagina</p>} />
  </>
);

const CONNECTION_PROBLEM = 'Kon geen verbinding maken met de gebruikers API. Probeer het later opnieuw.';

afterEach(() => {
  vi.unstubAllGlobals();
  loadPage.mockClear();
});

describe('LoginScreen', () => {
  it('shows the welcome, the data-provision text and the links, and sets the page title', async () => {
    fakeNetwork((url) => {
      if (url.pathname === '/api/users/whoami') return { status: 401, body: { error: { id: 'session_inactive' } } };
      if (url.pathname === '/api/config') return { status: 200, body: { registrationEnabled: false } };
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: loginFlow('aal1') };
      return undefined;
    });
    renderAt('/login', routes);
    expect(await screen.findByLabelText('Wachtwoord')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welkom' })).toBeInTheDocument();
    expect(screen.getByText(/Log in om de datavoorzieningen/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Wachtwoord vergeten' })).toHaveAttribute('href', '/recovery');
    expect(screen.getByRole('link', { name: 'Account verifiëren' })).toHaveAttribute('href', '/verification');
    expect(screen.queryByRole('link', { name: 'Account maken' })).toBeNull();
    expect(document.title).toBe('Inloggen – Datavoorzieningen Portaal');
  });

  it('says why after an automatic sign-out for lack of use, once', async () => {
    fakeNetwork((url) =>
      url.pathname === '/self-service/login/browser'
        ? { status: 200, body: loginFlow('aal1') }
        : { status: 401, body: {} },
    );
    window.sessionStorage.setItem('dvp-uitgelogd-na-minuten', '30');
    const { unmount } = renderAt('/login', routes);
    expect(
      await screen.findByText(
        'Je bent automatisch uitgelogd, omdat je 30 minuten niets hebt gedaan. Log opnieuw in om verder te gaan.',
      ),
    ).toBeInTheDocument();
    await screen.findByLabelText('Wachtwoord');
    unmount();
    renderAt('/login', routes);
    await screen.findByLabelText('Wachtwoord');
    expect(screen.queryByText(/Je bent automatisch uitgelogd/)).toBeNull();
  });

  it('uses the administrator text on an admin path', async () => {
    fakeNetwork((url) =>
      url.pathname === '/self-service/login/browser'
        ? { status: 200, body: loginFlow('aal1') }
        : { status: 401, body: {} },
    );
    renderAt('/admin-login', routes);
    expect(await screen.findByText('Hier kunt u inloggen voor het Administrator dashboard.')).toBeInTheDocument();
  });

  it('fetches a new flow once, so that what is typed at once is what is sent', async () => {
    const calls = fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: loginFlow('aal1') };
      if (url.pathname === '/self-service/login/flows') return { status: 200, body: loginFlow('aal1') };
      if (url.pathname === '/self-service/login' && init?.method === 'POST')
        return {
          status: 400,
          body: loginFlow('aal1', [{ id: 4000006, text: 'The provided credentials are invalid', type: 'error' }]),
        };
      return { status: 401, body: {} };
    });
    renderAt('/admin-login', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'bea@voorbeeldstad.nl');
    await userEvent.type(screen.getByLabelText('Wachtwoord'), 'Kade-Brug-Sluis-Molen-93');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    await screen.findByRole('alert');
    const sent = calls.find((call) => call.init?.method === 'POST');
    expect(JSON.parse(String(sent?.init?.body))).toMatchObject({
      identifier: 'bea@voorbeeldstad.nl',
      password: 'Kade-Brug-Sluis-Molen-93',
    });
    expect(
      calls.filter((call) => call.url.pathname.startsWith('/self-service/login/')).map((call) => call.url.pathname),
    ).toEqual(['/self-service/login/browser']);
  });

  it('keeps what is typed when the screen draws again, such as when the portal settings arrive late', async () => {
    const calls = fakeNetwork((url, init) => {
      if (url.pathname === '/api/config') return { status: 200, body: { registrationEnabled: true } };
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: loginFlow('aal1') };
      if (url.pathname === '/self-service/login' && init?.method === 'POST')
        return { status: 400, body: loginFlow('aal1') };
      return { status: 401, body: {} };
    });
    const release = answerLater((url) => url.pathname === '/api/config');
    renderAt('/login', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'bea@voorbeeldstad.nl');
    await userEvent.type(screen.getByLabelText('Wachtwoord'), 'Kade-Brug-Sluis-Molen-93');
    release();
    await screen.findByRole('link', { name: 'Account maken' });
    expect(screen.getByLabelText('E-mailadres')).toHaveValue('bea@voorbeeldstad.nl');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    await waitFor(() => expect(calls.some((call) => call.init?.method === 'POST')).toBe(true));
    const sent = calls.find((call) => call.init?.method === 'POST');
    expect(JSON.parse(String(sent?.init?.body))).toMatchObject({
      identifier: 'bea@voorbeeldstad.nl',
      password: 'Kade-Brug-Sluis-Molen-93',
    });
  });

  it('says the portal cannot be reached when the identity provider is down, instead of Laden… for ever', async () => {
    fakeNetwork(() => ({ status: 401, body: {} }));
    unreachable((url) => url.pathname.startsWith('/self-service/'));
    renderAt('/login', routes);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(CONNECTION_PROBLEM);
    // With a support mailbox; without a support address set, the helpdesk instead of an address-less 'mail'.
    expect(alert).toHaveTextContent('Blijft dit gebeuren? Neem dan contact op met de helpdesk van je organisatie.');
    expect(screen.queryByText('Laden…')).toBeNull();
  });

  it('names the support address with the connection problem when one is set', async () => {
    fakeNetwork((url) =>
      url.pathname === '/api/config'
        ? { status: 200, body: { supportEmail: 'support@voorbeeldstad.nl' } }
        : { status: 401, body: {} },
    );
    unreachable((url) => url.pathname.startsWith('/self-service/'));
    renderAt('/login', routes);
    const alert = await screen.findByRole('alert');
    await waitFor(() =>
      expect(alert).toHaveTextContent(
        `${CONNECTION_PROBLEM}Blijft dit gebeuren? Mail dan naar support@voorbeeldstad.nl.`,
      ),
    );
    expect(screen.getByRole('link', { name: 'support@voorbeeldstad.nl' })).toHaveAttribute(
      'href',
      'mailto:support@voorbeeldstad.nl',
    );
  });

  it('says sign-in failed through no fault of the person when the provider answers with a server error', async () => {
    fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: loginFlow('aal1') };
      if (url.pathname === '/self-service/login' && init?.method === 'POST')
        return { status: 500, body: { error: { code: 500, message: 'An internal server error occurred' } } };
      return { status: 401, body: {} };
    });
    renderAt('/login', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'bea@voorbeeldstad.nl');
    await userEvent.type(screen.getByLabelText('Wachtwoord'), 'Kade-Brug-Sluis-Molen-93');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Inloggen is nu niet gelukt door een fout in het portaal. Probeer het over een paar minuten opnieuw.',
    );
    expect(screen.getByLabelText('E-mailadres')).toHaveValue('bea@voorbeeldstad.nl');
  });

  it('says the portal is busy, not broken, on a 503 from the provider, and keeps what was typed', async () => {
    const BUSY_TEXT = 'Het is nu erg druk in het portaal. Probeer het over een minuut opnieuw.';
    const busy = { status: 503, body: { error: { code: 503, status: 'Service Unavailable' } } };
    fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: loginFlow('aal1') };
      if (url.pathname === '/self-service/login' && init?.method === 'POST') return busy;
      return { status: 401, body: {} };
    });
    const first = renderAt('/login', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'bea@voorbeeldstad.nl');
    await userEvent.type(screen.getByLabelText('Wachtwoord'), 'Kade-Brug-Sluis-Molen-93');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(BUSY_TEXT);
    expect(screen.getByLabelText('E-mailadres')).toHaveValue('bea@voorbeeldstad.nl');
    first.unmount();

    // Refused before a flow exists: the same words instead of a form that never comes.
    fakeNetwork((url) => (url.pathname === '/self-service/login/browser' ? busy : { status: 401, body: {} }));
    renderAt('/login', routes);
    expect(await screen.findByRole('alert')).toHaveTextContent(BUSY_TEXT);
    expect(screen.queryByText('Laden…')).toBeNull();
  });

  it('gives up on an identity provider that does not answer after 12 seconds and says so', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fakeNetwork(() => ({ status: 401, body: {} }));
      silent((url) => url.pathname === '/self-service/login/browser');
      renderAt('/login', routes);
      expect(await screen.findByText('Laden…')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(11_900));
      expect(screen.queryByRole('alert')).toBeNull();
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(await screen.findByRole('alert')).toHaveTextContent(CONNECTION_PROBLEM);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the provider refusal in Dutch and keeps the e-mail address', async () => {
    fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: loginFlow('aal1') };
      if (url.pathname === '/self-service/login' && init?.method === 'POST') {
        return {
          status: 400,
          body: loginFlow('aal1', [{ id: 4000006, text: 'The provided credentials are invalid', type: 'error' }]),
        };
      }
      return { status: 401, body: {} };
    });
    renderAt('/login', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'anna@voorbeeldstad.nl');
    await userEvent.type(screen.getByLabelText('Wachtwoord'), 'fout');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Het e-mailadres of wachtwoord klopt niet.');
  });

  it.each([
    ['follows the replacing flow', { use_flow_id: 'f2' }],
    ['starts over', {}],
  ])('keeps the e-mail address, not the password, when the flow expired and %s, and says so', async (_, extra) => {
    const expired = { id: 4010001, text: 'The login flow expired 1.00 minutes ago, please try again.', type: 'error' };
    fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser')
        return { status: 200, body: loginFlow('aal1', 'use_flow_id' in extra ? undefined : [expired]) };
      if (url.pathname === '/self-service/login/flows')
        return { status: 200, body: { ...loginFlow('aal1', [expired]), id: url.searchParams.get('id') } };
      if (url.pathname === '/self-service/login' && init?.method === 'POST')
        return { status: 410, body: { error: { id: 'self_service_flow_expired', code: 410 }, ...extra } };
      return { status: 401, body: {} };
    });
    const { container } = renderAt('/login', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'anna@voorbeeldstad.nl');
    await userEvent.type(screen.getByLabelText('Wachtwoord'), 'Kade-Brug-Sluis-Molen-93');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    expect(await screen.findByText('Het inloggen duurde te lang. Probeer het opnieuw.')).toBeInTheDocument();
    // The message may show a moment before the new flow's form replaces the old one.
    await waitFor(() => expect(screen.getByLabelText('Wachtwoord')).toHaveValue(''));
    expect(screen.getByLabelText('E-mailadres')).toHaveValue('anna@voorbeeldstad.nl');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('asks for the authenticator code on the second step, with the spec texts', async () => {
    fakeNetwork((url) =>
      url.pathname === '/self-service/login/browser'
        ? { status: 200, body: loginFlow('aal2') }
        : { status: 401, body: {} },
    );
    renderAt('/login?aal=aal2', routes);
    expect(
      await screen.findByText('Open de authentiatie app op uw telefoon of tablet en voer de verificatiecode in.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Verificatiecode')).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Uitloggen' })).toBeInTheDocument();
  });

  it('says why on the second step when an organisation the person joined asks for it', async () => {
    fakeNetwork((url) =>
      url.pathname === '/self-service/login/browser'
        ? { status: 200, body: loginFlow('aal2') }
        : { status: 401, body: {} },
    );
    renderAt('/login?aal=aal2', routes, { secondFactorFor: ['Gemeente Voorbeeldstad'] });
    expect(
      await screen.findByText(
        'De organisatie Gemeente Voorbeeldstad vraagt om tweestapsverificatie. Bevestig daarom dat jij het bent ' +
          'met je tweede stap.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Verificatiecode')).toBeInTheDocument();
  });

  it('goes to /permissies one second after signing in', async () => {
    fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: loginFlow('aal1') };
      if (url.pathname === '/self-service/login' && init?.method === 'POST')
        return { status: 200, body: { session: { id: 's1' } } };
      if (url.pathname === '/api/users/whoami')
        return init?.method ? { status: 200, body: { isAdmin: false } } : { status: 200, body: { isAdmin: false } };
      return undefined;
    });
    renderAt('/login', routes);
    await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'goed-wachtwoord');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    expect(await screen.findByText('Je bent ingelogd. Even geduld…')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Datavoorzieningen-pagina')).toBeInTheDocument(), { timeout: 2_500 });
  });

  it('asks for a flow with the return_to kept before sign-in, forgets it, goes there, also off-site', async () => {
    window.localStorage.setItem('dvp-return-to', 'https://dashboard.voorbeeldstad.nl/wijkmonitor#kaart');
    const calls = fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser')
        return { status: 200, body: { ...loginFlow('aal1'), return_to: url.searchParams.get('return_to') } };
      if (url.pathname === '/self-service/login' && init?.method === 'POST')
        return { status: 200, body: { session: { id: 's1' } } };
      if (url.pathname === '/api/users/whoami')
        return init?.method ? { status: 401, body: {} } : { status: 200, body: { isAdmin: false } };
      return undefined;
    });
    renderAt('/login', routes);
    await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'goed-wachtwoord');
    const created = calls.find((call) => call.url.pathname === '/self-service/login/browser');
    expect(created?.url.searchParams.get('return_to')).toBe('https://dashboard.voorbeeldstad.nl/wijkmonitor#kaart');
    expect(window.localStorage.getItem('dvp-return-to')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('https://dashboard.voorbeeldstad.nl/wijkmonitor#kaart'), {
      timeout: 2_500,
    });
  });

  it("loads the OpenID Connect provider's interaction as a page of its own, not a screen of the app", async () => {
    const interaction = `${window.location.origin}/oidc/interaction/abc123`;
    fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser')
        return { status: 200, body: { ...loginFlow('aal1'), return_to: url.searchParams.get('return_to') } };
      if (url.pathname === '/self-service/login' && init?.method === 'POST')
        return { status: 200, body: { session: { id: 's1' } } };
      if (url.pathname === '/api/users/whoami') return { status: 200, body: { isAdmin: false } };
      return undefined;
    });
    renderAt(`/login?return_to=${encodeURIComponent(interaction)}`, routes);
    await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'goed-wachtwoord');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith(interaction), { timeout: 2_500 });
  });

  /**
   * On the way to a data service (an OpenID Connect interaction in return_to), a password sign-in of a person whose
   * organisation requires a second factor the session does not have: `credentials` are the person's.
   */
  function signInOnTheWayToAService(credentials: string[], routes: ReactNode) {
    const interaction = `${window.location.origin}/oidc/interaction/abc123`;
    let signedIn = false;
    fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser')
        return { status: 200, body: { ...loginFlow('aal1'), return_to: url.searchParams.get('return_to') } };
      if (url.pathname === '/self-service/login' && init?.method === 'POST') {
        signedIn = true;
        return { status: 200, body: { session: { id: 's1' } } };
      }
      if (url.pathname === '/api/users/whoami' && !signedIn) return { status: 401, body: {} };
      if (url.pathname === '/api/users/whoami')
        return {
          status: 200,
          body: {
            isAdmin: false,
            aal2Required: true,
            secondFactorMet: false,
            authenticator_assurance_level: 'aal1',
            identity: { credentials },
          },
        };
      return undefined;
    });
    renderAt(`/login?return_to=${encodeURIComponent(interaction)}`, routes);
    return interaction;
  }

  async function signInWithPassword() {
    await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'goed-wachtwoord');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
  }

  it('sends a person who must link an app first on the way to a data service to the app, with the way on', async () => {
    signInOnTheWayToAService(
      ['password'],
      <>
        <Route path="/login" element={<Login />} />
        <Route path="/settings/2fa-app" element={<Address />} />
      </>,
    );
    await signInWithPassword();
    const onward = `Adres: /settings/2fa-app?verder=${encodeURIComponent('/oidc/interaction/abc123')}`;
    await waitFor(() => expect(screen.getByText(onward)).toBeInTheDocument(), { timeout: 2_500 });
  });

  it('keeps the way on to a data service when a passkey must confirm the sign-in', async () => {
    const interaction = signInOnTheWayToAService(
      ['password', 'passkey'],
      <Route
        path="/login"
        element={
          <>
            <Login />
            <Address />
          </>
        }
      />,
    );
    await signInWithPassword();
    const onward = `Adres: /login?refresh=true&passkey=1&return_to=${encodeURIComponent(interaction)}`;
    await waitFor(() => expect(screen.getByText(onward)).toBeInTheDocument(), { timeout: 2_500 });
  });

  it('sends a person who is signed in already to /permissies when the provider says so', async () => {
    fakeNetwork((url) => {
      if (url.pathname === '/self-service/login/browser')
        return { status: 400, body: { error: { id: 'session_already_available', code: 400 } } };
      return { status: 401, body: {} };
    });
    renderAt('/login?aal=aal2', routes);
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
  });

  it('keeps the administrator path for the second factor and ends on the overview', async () => {
    fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser')
        return { status: 200, body: loginFlow(url.searchParams.get('aal') === 'aal2' ? 'aal2' : 'aal1') };
      if (url.pathname === '/self-service/login' && init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { method: string };
        if (body.method === 'password') {
          return {
            status: 422,
            body: {
              error: { id: 'browser_location_change_required', code: 422 },
              redirect_browser_to: `${window.location.origin}/self-service/login/browser?aal=aal2`,
            },
          };
        }
        return { status: 200, body: { session: { id: 's1' } } };
      }
      if (url.pathname === '/api/users/whoami')
        return { status: 200, body: { isAdmin: true, aal2Required: true, authenticator_assurance_level: 'aal2' } };
      return undefined;
    });
    renderAt('/admin-login', routes);
    await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'goed-wachtwoord');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    await userEvent.type(await screen.findByLabelText('Verificatiecode'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByText('Overzicht-pagina')).toBeInTheDocument(), { timeout: 2_500 });
  });

  it('starts over without a foreign return_to and says why', async () => {
    const calls = fakeNetwork((url) => {
      if (url.pathname === '/self-service/login/browser') {
        return url.searchParams.get('return_to')
          ? { status: 400, body: { error: { id: 'self_service_flow_return_to_forbidden', code: 400 } } }
          : { status: 200, body: loginFlow('aal1') };
      }
      return { status: 401, body: {} };
    });
    const { container } = renderAt('/login?return_to=https://kwaadwillend.example/', routes);
    expect(
      await screen.findByText(
        'Het adres waar je hierna heen zou gaan, hoort niet bij het portaal. Je blijft daarom in het portaal.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByLabelText('Wachtwoord')).toBeInTheDocument();
    expect(
      calls
        .filter((call) => call.url.pathname === '/self-service/login/browser')
        .map((call) => call.url.searchParams.has('return_to')),
    ).toEqual([true, false]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('sends an existing session without its second factor to enrolment, or with an app to the code step', async () => {
    const whoami = (credentials: string[]) => ({
      identity: { credentials },
      aal2Required: true,
      authenticator_assurance_level: 'aal1',
      isAdmin: false,
    });
    fakeNetwork((url) => {
      if (url.pathname === '/api/users/whoami') return { status: 200, body: whoami(['password']) };
      return { status: 200, body: loginFlow(url.searchParams.get('aal') === 'aal2' ? 'aal2' : 'aal1') };
    });
    renderAt('/login', routes);
    expect(await screen.findByText('Koppel-pagina')).toBeInTheDocument();
    vi.unstubAllGlobals();
    fakeNetwork((url) => {
      if (url.pathname === '/api/users/whoami') return { status: 200, body: whoami(['password', 'totp']) };
      return { status: 200, body: loginFlow(url.searchParams.get('aal') === 'aal2' ? 'aal2' : 'aal1') };
    });
    renderAt('/login', routes);
    expect(await screen.findByLabelText('Verificatiecode')).toBeInTheDocument();
  });

  it('says sign-in is not possible now when the provider answers 401, and keeps the form', async () => {
    fakeNetwork((url, init) => {
      if (url.pathname === '/self-service/login/browser') return { status: 200, body: loginFlow('aal1') };
      if (url.pathname === '/self-service/login' && init?.method === 'POST')
        return { status: 401, body: { error: { code: 401 } } };
      return { status: 401, body: {} };
    });
    renderAt('/login', routes);
    await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'goed-wachtwoord');
    await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    expect(await screen.findByText('Je kan momenteel niet inloggen')).toBeInTheDocument();
    expect(screen.getByLabelText('Wachtwoord')).toBeInTheDocument();
  });

  describe('focus and titles after each step (WCAG 2.4.2, 2.4.3, 3.3.1)', () => {
    /** A provider that asks for the second factor after the password, and refuses the code `000000`. */
    function twoSteps() {
      return fakeNetwork((url, init) => {
        if (url.pathname === '/self-service/login/browser')
          return { status: 200, body: loginFlow(url.searchParams.get('aal') === 'aal2' ? 'aal2' : 'aal1') };
        if (url.pathname === '/self-service/login' && init?.method === 'POST') {
          const body = JSON.parse(String(init.body)) as { method: string; password?: string; totp_code?: string };
          if (body.method === 'password' && body.password !== 'goed-wachtwoord')
            return {
              status: 400,
              body: loginFlow('aal1', [{ id: 4000006, text: 'The provided credentials are invalid', type: 'error' }]),
            };
          if (body.method === 'password')
            return {
              status: 422,
              body: {
                error: { id: 'browser_location_change_required', code: 422 },
                redirect_browser_to: `${window.location.origin}/self-service/login/browser?aal=aal2`,
              },
            };
          return {
            status: 400,
            body: loginFlow('aal2', [
              { id: 4000008, text: 'The provided authentication code is invalid, please try again.', type: 'error' },
            ]),
          };
        }
        return { status: 401, body: {} };
      });
    }

    it("focuses the refusal of a wrong password, then the second step's code field, then the wrong code", async () => {
      twoSteps();
      const { container } = renderAt('/login', routes);
      await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'fout');
      await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
      const refusal = await screen.findByRole('alert');
      expect(refusal).toHaveTextContent('Het e-mailadres of wachtwoord klopt niet.');
      await waitFor(() => expect(refusal).toHaveFocus());
      expect(document.title).toBe('Inloggen – Datavoorzieningen Portaal');

      await userEvent.clear(screen.getByLabelText('Wachtwoord'));
      await userEvent.type(screen.getByLabelText('Wachtwoord'), 'goed-wachtwoord');
      await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
      const code = await screen.findByLabelText('Verificatiecode');
      await waitFor(() => expect(code).toHaveFocus());
      expect(document.title).toBe('Inloggen – tweede stap – Datavoorzieningen Portaal');

      await userEvent.type(code, '000000');
      await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
      const summary = await screen.findByRole('alert', { name: 'Controleer de volgende velden:' });
      await waitFor(() => expect(summary).toHaveFocus());
      const wrong =
        'De verificatiecode klopt niet of is al gebruikt. Vul de code in die je authenticator-app nu laat zien.';
      expect(summary).toHaveTextContent(wrong);
      const field = screen.getByLabelText('Verificatiecode');
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(wrong);
      expect(await axeViolations(container)).toEqual([]);
    });

    it('says the person signed out and puts the focus in the e-mail field, once', async () => {
      fakeNetwork((url) =>
        url.pathname === '/self-service/login/browser'
          ? { status: 200, body: loginFlow('aal1') }
          : { status: 401, body: {} },
      );
      window.sessionStorage.setItem('dvp-uitgelogd', '1');
      const { unmount, container } = renderAt('/login', routes);
      expect(await screen.findByText('Je bent uitgelogd.')).toBeInTheDocument();
      await waitFor(() => expect(screen.getByLabelText('E-mailadres')).toHaveFocus());
      expect(await axeViolations(container)).toEqual([]);
      unmount();
      renderAt('/login', routes);
      await screen.findByLabelText('E-mailadres');
      expect(screen.queryByText('Je bent uitgelogd.')).toBeNull();
      expect(screen.getByLabelText('E-mailadres')).not.toHaveFocus();
    });

    it('focuses the connection problem when the portal cannot be reached after a submit', async () => {
      fakeNetwork((url) =>
        url.pathname === '/self-service/login/browser'
          ? { status: 200, body: loginFlow('aal1') }
          : { status: 401, body: {} },
      );
      unreachable((url) => url.pathname === '/self-service/login');
      renderAt('/login', routes);
      await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'goed-wachtwoord');
      await userEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(CONNECTION_PROBLEM);
      await waitFor(() => expect(alert).toHaveFocus());
    });
  });
});
