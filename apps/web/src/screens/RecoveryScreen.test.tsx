import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Address,
  descriptionOf,
  errorSummary,
  fakeNetwork,
  holdBack,
  renderAt,
  stepsOf,
  summaryItems,
  unreachable,
} from '../test-support';
import { axeViolations } from '../test-axe';
import RecoveryScreen from './RecoveryScreen';
import SettingsScreen from './SettingsScreen';

type Answer = { status: number; body?: unknown };

const routes = (
  <>
    <Route path="/recovery" element={<RecoveryScreen />} />
    {/* The mailed link ends on the settings screen with the settings flow it opened (docs/architecture.md). */}
    <Route path="/settings" element={<SettingsScreen />} />
    <Route path="/login" element={<Address />} />
    <Route path="/permissies" element={<Address />} />
    <Route path="/settings/2fa-app" element={<Address />} />
  </>
);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('RecoveryScreen', () => {
  it('shows the heading, e-mail field, Versturen, the way back to login, four steps, the first current', async () => {
    const calls = fakeNetwork(() => undefined);
    const { container } = renderAt('/recovery', routes);
    expect(screen.getByRole('heading', { level: 1, name: 'Herstel je wachtwoord' })).toBeInTheDocument();
    const email = screen.getByLabelText('E-mailadres');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByRole('button', { name: 'Versturen' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Ga naar de login pagina' })).toHaveAttribute('href', '/login');
    expect(stepsOf()).toEqual(['1Account verifiëren [nu]', '2Wachtwoord instellen', '32FA configureren', '4Klaar!']);
    expect(document.title).toBe('Herstel je wachtwoord – stap 1 van 4 – Datavoorzieningen Portaal');
    expect(calls).toEqual([]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('asks for an empty address by name, refuses a malformed one with the spec text, and sends nothing', async () => {
    const calls = fakeNetwork(() => undefined);
    const { container } = renderAt('/recovery', routes);
    const email = screen.getByLabelText('E-mailadres');
    await userEvent.click(screen.getByRole('button', { name: 'Versturen' }));
    // Plain Dutch that names the field and what to do, not a message about validity (B1).
    const empty = await screen.findByText('Vul je e-mailadres in.');
    expect(email.getAttribute('aria-describedby')?.split(' ')).toContain(empty.id);
    expect(email).toHaveFocus();
    expect(screen.queryByText('E-mail is niet valide.')).toBeNull();
    await userEvent.type(email, 'anna@');
    await userEvent.click(screen.getByRole('button', { name: 'Versturen' }));
    const message = await screen.findByText('E-mail is niet valide.');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(calls).toEqual([]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('asks the Users API to mail the trimmed, lowercased address, then says only that a mail may be sent', async () => {
    const calls = fakeNetwork((url) =>
      url.pathname === '/api/users/password-recovery' ? { status: 200, body: { sent: true } } : undefined,
    );
    const { container } = renderAt('/recovery', routes);
    await userEvent.type(screen.getByLabelText('E-mailadres'), '  Anna.de.Vries@Voorbeeldstad.NL ');
    await userEvent.click(screen.getByRole('button', { name: 'Versturen' }));
    const sent = await screen.findByRole('status');
    expect(
      within(sent)
        .getAllByRole('paragraph')
        .map((p) => p.textContent),
    ).toEqual([
      'Als het opgegeven e-mailadres een geldig account is, wordt er een e-mail verzonden met ' +
        'instructies om het wachtwoord opnieuw in te stellen.',
      'E-mail niet ontvangen? Neem contact op met de administrator van jouw gemeente.',
    ]);
    expect(screen.queryByLabelText('E-mailadres')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Versturen' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Ga naar de login pagina' })).toHaveAttribute('href', '/login');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.init?.method).toBe('GET');
    expect(calls[0]!.url.pathname).toBe('/api/users/password-recovery');
    expect([...calls[0]!.url.searchParams]).toEqual([['email', 'anna.de.vries@voorbeeldstad.nl']]);
    // The answer replaces the form and its button: it has the focus, and the title says what to do now.
    await waitFor(() => expect(sent).toHaveFocus());
    expect(document.title).toBe('Herstel je wachtwoord – kijk in je e-mail – Datavoorzieningen Portaal');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('ignores further submits while the request is under way', async () => {
    fakeNetwork(() => undefined);
    const held = holdBack((url) => url.pathname === '/api/users/password-recovery');
    const { container } = renderAt('/recovery', routes);
    await userEvent.type(screen.getByLabelText('E-mailadres'), 'anna@voorbeeldstad.nl');
    await userEvent.click(screen.getByRole('button', { name: 'Versturen' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Versturen' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Versturen' }).closest('form')).toHaveAttribute('aria-busy', 'true');
    await userEvent.type(screen.getByLabelText('E-mailadres'), '{Enter}');
    expect(held).toHaveLength(1);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the spec failure text and keeps the form when the Users API refuses', async () => {
    fakeNetwork((url) =>
      url.pathname === '/api/users/password-recovery'
        ? { status: 500, body: { error: { code: 500, reason: 'internal' } } }
        : undefined,
    );
    const { container } = renderAt('/recovery', routes);
    await userEvent.type(screen.getByLabelText('E-mailadres'), 'anna@voorbeeldstad.nl');
    await userEvent.click(screen.getByRole('button', { name: 'Versturen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan bij het herstellen van je wachtwoord. Probeer het later nog eens.',
    );
    expect(screen.getByLabelText('E-mailadres')).toHaveValue('anna@voorbeeldstad.nl');
    expect(screen.getByRole('button', { name: 'Versturen' })).toBeEnabled();
    expect(screen.queryByText(/wordt er een e-mail verzonden/)).toBeNull();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the same failure text when the Users API cannot be reached', async () => {
    fakeNetwork(() => undefined);
    unreachable((url) => url.pathname === '/api/users/password-recovery');
    renderAt('/recovery', routes);
    await userEvent.type(screen.getByLabelText('E-mailadres'), 'anna@voorbeeldstad.nl');
    await userEvent.click(screen.getByRole('button', { name: 'Versturen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan bij het herstellen van je wachtwoord. Probeer het later nog eens.',
    );
  });

  it('explains above the form why the person is back when the provider returns a spent link with ?flow=', async () => {
    const calls = fakeNetwork((url) =>
      url.pathname === '/self-service/recovery/flows'
        ? {
            status: 200,
            body: {
              id: 'r2',
              type: 'browser',
              state: 'choose_method',
              ui: {
                action: `${window.location.origin}/self-service/recovery?flow=r2`,
                method: 'POST',
                messages: [
                  {
                    id: 4060004,
                    text: 'The recovery token is invalid or has already been used. Please retry the flow.',
                    type: 'error',
                  },
                ],
                nodes: [],
              },
            },
          }
        : undefined,
    );
    const { container } = renderAt('/recovery?flow=r2', routes);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'De herstellink is ongeldig of al gebruikt. Vraag een nieuwe aan.',
    );
    expect(screen.getByLabelText('E-mailadres')).toBeInTheDocument();
    expect(calls.map((call) => `${call.url.pathname}?${call.url.searchParams}`)).toEqual([
      '/self-service/recovery/flows?id=r2',
    ]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the plain form when the flow in the address cannot be read', async () => {
    fakeNetwork((url) =>
      url.pathname === '/self-service/recovery/flows'
        ? { status: 404, body: { error: { code: 404, message: 'Unable to locate the resource' } } }
        : undefined,
    );
    renderAt('/recovery?flow=weg', routes);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByLabelText('E-mailadres')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

/** The settings flow the mailed link opens (docs/kratos-compatibility.md; packages/idp flows/recovery/finish.ts). */
const input = (
  group: string,
  name: string,
  type: string,
  label?: { id: number; text: string; context?: unknown },
  value?: unknown,
  messages: unknown[] = [],
) => ({
  type: 'input',
  group,
  attributes: { name, type, ...(value === undefined ? {} : { value }), disabled: false, node_type: 'input' },
  messages,
  meta: label ? { label: { ...label, type: 'info' } } : {},
});
const recoveredFlow = (passwordMessages: unknown[] = []) => ({
  id: 's1',
  type: 'browser',
  state: 'show_form',
  identity: {
    id: 'anna',
    schema_id: 'default',
    traits: { email: 'anna@voorbeeldstad.nl', name: { first: 'Anna', last: 'de Vries' } },
  },
  expires_at: new Date(Date.now() + 60 * 60_000).toISOString(),
  ui: {
    action: `${window.location.origin}/self-service/settings?flow=s1`,
    method: 'POST',
    messages: [
      {
        id: 1060001,
        type: 'success',
        text:
          'You successfully recovered your account. Please change your password or set up an alternative ' +
          'login method (e.g. social sign in) within the next 15.00 minutes.',
        context: { privileged_session_expires_at: new Date(Date.now() + 15 * 60_000).toISOString() },
      },
    ],
    nodes: [
      input('default', 'csrf_token', 'hidden', undefined, 'csrf-s1'),
      input(
        'profile',
        'traits.email',
        'email',
        { id: 1070002, text: 'E-Mail', context: { title: 'E-Mail', name: 'traits.email' } },
        'anna@voorbeeldstad.nl',
      ),
      input('password', 'password', 'password', { id: 1070001, text: 'Password' }, undefined, passwordMessages),
      input('password', 'method', 'submit', { id: 1070003, text: 'Save' }, 'password'),
    ],
  },
});

const whoami = (credentials: string[], aal: 'aal1' | 'aal2' = 'aal1') => ({
  active: true,
  identity: {
    id: 'anna',
    traits: { email: 'anna@voorbeeldstad.nl', name: { first: 'Anna', last: 'de Vries' } },
    credentials,
  },
  permissions: [],
  activeOrg: { id: 'voorbeeldstad', label: 'Gemeente Voorbeeldstad', subdivisions: [] },
  isAdmin: false,
  authenticator_assurance_level: aal,
  aal2Required: true,
});

function recoveredNetwork(
  options: {
    flow?: Answer;
    update?: (body: Record<string, unknown>) => Answer;
    whoami?: Answer;
    session?: Answer;
  } = {},
) {
  return fakeNetwork((url, init) => {
    if (url.pathname === '/sessions/whoami') return options.session ?? { status: 200, body: { id: 'sessie' } };
    if (url.pathname === '/self-service/settings/flows') return options.flow ?? { status: 200, body: recoveredFlow() };
    if (url.pathname === '/self-service/settings' && init?.method === 'POST')
      return (
        options.update?.(JSON.parse(String(init.body))) ?? {
          status: 200,
          body: { ...recoveredFlow(), state: 'success' },
        }
      );
    if (url.pathname === '/api/users/whoami') return options.whoami ?? { status: 200, body: whoami(['password']) };
    return undefined;
  });
}

async function choosePassword(password: string, confirmation = password) {
  if (password) await userEvent.type(await screen.findByLabelText('Nieuw wachtwoord'), password);
  if (confirmation) await userEvent.type(screen.getByLabelText('Wachtwoord bevestigen'), confirmation);
  const save = screen.getByRole('button', { name: 'Wachtwoord opslaan' });
  await waitFor(() => expect(save).toBeEnabled());
  await userEvent.click(save);
}

describe('RecoveredPasswordView (after the mailed link)', () => {
  it("shows step 2 of the link's settings flow: recovery message, both password fields, 8-character note", async () => {
    const calls = recoveredNetwork();
    const { container } = renderAt('/settings?flow=s1', routes);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Je account is hersteld. Kies binnen 15 minuten een nieuw wachtwoord.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Wachtwoord instellen' })).toBeInTheDocument();
    expect(stepsOf()).toEqual([
      '✓Account verifiëren (klaar)',
      '2Wachtwoord instellen [nu]',
      '32FA configureren',
      '4Klaar!',
    ]);
    const password = screen.getByLabelText('Nieuw wachtwoord');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByLabelText('Wachtwoord bevestigen')).toHaveAttribute('autocomplete', 'new-password');
    // A hidden username field, so that a password manager stores the new password with the account's address.
    expect(container.querySelector('input[autocomplete="username"]')).toHaveValue('anna@voorbeeldstad.nl');
    const note = screen.getByText('Het wachtwoord moet minimaal 8 tekens zijn.');
    expect(password.getAttribute('aria-describedby')?.split(' ')).toContain(note.id);
    expect(screen.getByRole('button', { name: 'Toon nieuw wachtwoord' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Wachtwoord opslaan' })).toBeEnabled();
    expect(screen.queryByLabelText('Naam')).toBeNull();
    expect(document.title).toBe('Wachtwoord instellen – stap 2 van 4 – Datavoorzieningen Portaal');
    const fetched = calls.filter((call) => call.url.pathname === '/self-service/settings/flows');
    expect(fetched.map((call) => call.url.searchParams.get('id'))).toEqual(['s1']);
    expect(calls.some((call) => call.url.pathname === '/self-service/settings/browser')).toBe(false);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('keeps the save button disabled until the flow is there', async () => {
    recoveredNetwork();
    holdBack((url) => url.pathname === '/self-service/settings/flows');
    const { container } = renderAt('/settings?flow=s1', routes);
    expect(screen.getByRole('button', { name: 'Wachtwoord opslaan' })).toBeDisabled();
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByRole('button', { name: 'Wachtwoord opslaan' })).toBeDisabled();
    expect(await axeViolations(container)).toEqual([]);
  });

  it.each([
    ['kort', 'kort', 'Nieuw wachtwoord', 'Het nieuwe wachtwoord bevat geen 8 tekens.'],
    ['lang-genoeg-1', '', 'Wachtwoord bevestigen', '"Wachtwoord bevestigen" is een verplicht veld.'],
    ['lang-genoeg-1', 'anders-1234', 'Wachtwoord bevestigen', 'Wachtwoorden komen niet overeen.'],
  ])(
    'refuses %j / %j under %s with the fixed Dutch text and sends nothing',
    async (password, confirmation, field, text) => {
      const calls = recoveredNetwork();
      const { container } = renderAt('/settings?flow=s1', routes);
      await screen.findByRole('status');
      await choosePassword(password, confirmation);
      await waitFor(() => expect(errorSummary()).toHaveFocus());
      expect(summaryItems()).toEqual([text]);
      const input = screen.getByLabelText(field);
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(descriptionOf(input)).toContain(text);
      expect(calls.some((call) => call.init?.method === 'POST')).toBe(false);
      expect(await axeViolations(container)).toEqual([]);
    },
  );

  it('saves the password with only method, password and csrf_token, then goes to link an app (step 3)', async () => {
    const sent: Record<string, unknown>[] = [];
    const calls = recoveredNetwork({
      update: (body) => {
        sent.push(body);
        return { status: 200, body: { ...recoveredFlow(), state: 'success' } };
      },
    });
    renderAt('/settings?flow=s1', routes);
    await choosePassword('een-goed-wachtwoord');
    expect(await screen.findByText('Adres: /settings/2fa-app?herstel=1')).toBeInTheDocument();
    expect(sent).toEqual([{ method: 'password', password: 'een-goed-wachtwoord', csrf_token: 'csrf-s1' }]);
    const post = calls.find((call) => call.init?.method === 'POST');
    expect(post?.url.pathname).toBe('/self-service/settings');
    expect(post?.url.searchParams.get('flow')).toBe('s1');
  });

  it('sends an account with an app to the code step, or to the data services when the session has aal2', async () => {
    recoveredNetwork({ whoami: { status: 200, body: whoami(['password', 'totp']) } });
    renderAt('/settings?flow=s1', routes);
    await choosePassword('een-goed-wachtwoord');
    expect(await screen.findByText('Adres: /login?aal=aal2')).toBeInTheDocument();
    vi.unstubAllGlobals();
    recoveredNetwork({ whoami: { status: 200, body: whoami(['password', 'totp'], 'aal2') } });
    renderAt('/settings?flow=s1', routes);
    await choosePassword('een-goed-wachtwoord');
    expect(await screen.findByText('Adres: /permissies')).toBeInTheDocument();
  });

  it('welcomes a person following an invitation, without any way to sign in yet, instead of "hersteld"', async () => {
    recoveredNetwork({ whoami: { status: 200, body: whoami([]) } });
    const { container } = renderAt('/settings?flow=s1', routes);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Welkom! Kies binnen 15 minuten een wachtwoord voor je account.',
    );
    expect(screen.queryByText(/Je account is hersteld/)).toBeNull();
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the provider refusal of the password in Dutch under the field', async () => {
    recoveredNetwork({
      update: () => ({
        status: 400,
        body: recoveredFlow([
          {
            id: 4000034,
            text: 'The password has been found in data breaches and must no longer be used.',
            type: 'error',
            context: { breaches: 12 },
          },
        ]),
      }),
    });
    const { container } = renderAt('/settings?flow=s1', routes);
    await choosePassword('wachtwoord1');
    const message = await screen.findByText(
      'Dit wachtwoord staat in een lijst van gelekte of veelgebruikte wachtwoorden. Kies een ander wachtwoord.',
    );
    const password = screen.getByLabelText('Nieuw wachtwoord');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(screen.queryByText(/^Adres:/)).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('drops the refusal once another password is typed: it was about the one refused', async () => {
    recoveredNetwork({
      update: () => ({
        status: 400,
        body: recoveredFlow([{ id: 4000034, text: 'The password has been found in data breaches.', type: 'error' }]),
      }),
    });
    renderAt('/settings?flow=s1', routes);
    await choosePassword('wachtwoord1');
    const LEAKED =
      'Dit wachtwoord staat in een lijst van gelekte of veelgebruikte wachtwoorden. Kies een ander wachtwoord.';
    expect(await screen.findByText(LEAKED)).toBeInTheDocument();
    const password = screen.getByLabelText('Nieuw wachtwoord');
    await userEvent.clear(password);
    await userEvent.type(password, 'Zonnebloem-Kanaal-Fiets-42');
    const confirmation = screen.getByLabelText('Wachtwoord bevestigen');
    await userEvent.clear(confirmation);
    await userEvent.type(confirmation, 'Zonnebloem-Kanaal-Fiets-43');
    await userEvent.click(screen.getByRole('button', { name: 'Wachtwoord opslaan' }));
    expect(await screen.findAllByText('Wachtwoorden komen niet overeen.')).not.toHaveLength(0);
    expect(screen.queryByText(LEAKED)).toBeNull();
    expect(password).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the spec failure text when the provider refuses without saying why', async () => {
    recoveredNetwork({ update: () => ({ status: 400, body: recoveredFlow() }) });
    const { container } = renderAt('/settings?flow=s1', routes);
    await choosePassword('een-goed-wachtwoord');
    const message = await screen.findByText(
      'Er is iets misgegaan bij het updaten van je nieuwe wachtwoord. Probeer het nog eens.',
    );
    expect(screen.getByLabelText('Nieuw wachtwoord').getAttribute('aria-describedby')?.split(' ')).toContain(
      message.id,
    );
    expect(await axeViolations(container)).toEqual([]);
  });

  it('starts recovery over at /recovery, saying why, when another account opened the link or it expired', async () => {
    recoveredNetwork({
      flow: {
        status: 403,
        body: {
          error: {
            id: 'security_identity_mismatch',
            code: 403,
            status: 'Forbidden',
            message: 'The requested action was forbidden',
          },
        },
      },
    });
    const { container } = renderAt('/settings?flow=s1', routes);
    expect(
      await screen.findByText('Je bent intussen met een ander account ingelogd. Vul het formulier opnieuw in.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Herstel je wachtwoord' })).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
    vi.unstubAllGlobals();
    recoveredNetwork({
      flow: {
        status: 410,
        body: {
          error: { id: 'self_service_flow_expired', code: 410, status: 'Gone', message: 'self-service flow expired' },
        },
      },
    });
    renderAt('/settings?flow=s1', routes);
    expect(await screen.findByText('Het formulier was verlopen. Vul het opnieuw in.')).toBeInTheDocument();
  });

  it('says the form could not be loaded when the server is unreachable or fails, not leaving a dead form', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    recoveredNetwork();
    unreachable((url) => url.pathname === '/self-service/settings/flows');
    const { container } = renderAt('/settings?flow=s1', routes);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan bij het ophalen van het formulier. Probeer het later nog eens.',
    );
    expect(screen.getByRole('button', { name: 'Wachtwoord opslaan' })).toBeDisabled();
    expect(logged).toHaveBeenCalledWith('De server is niet bereikbaar. Probeer het over een paar minuten opnieuw.');
    expect(await axeViolations(container)).toEqual([]);
    vi.unstubAllGlobals();
    recoveredNetwork({
      flow: {
        status: 500,
        body: {
          error: {
            code: 500,
            status: 'Internal Server Error',
            message: 'An internal server error occurred, please contact the system administrator',
          },
        },
      },
    });
    const second = renderAt('/settings?flow=s1', routes);
    expect(await within(second.container).findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan bij het ophalen van het formulier. Probeer het later nog eens.',
    );
  });

  it('says the password could not be saved when the server cannot be reached, and stays on the form', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    recoveredNetwork();
    unreachable((url) => url.pathname === '/self-service/settings');
    const { container } = renderAt('/settings?flow=s1', routes);
    await choosePassword('een-goed-wachtwoord');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan bij het updaten van je nieuwe wachtwoord. Probeer het nog eens.',
    );
    expect(screen.getByLabelText('Nieuw wachtwoord')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('button', { name: 'Wachtwoord opslaan' })).toBeEnabled();
    expect(screen.queryByText(/^Adres:/)).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('sends a person whose session is gone to /login', async () => {
    recoveredNetwork({
      flow: {
        status: 401,
        body: {
          error: {
            code: 401,
            status: 'Unauthorized',
            reason: 'A valid Ory Session Cookie or Ory Session Token is missing.',
          },
        },
      },
    });
    renderAt('/settings?flow=s1', routes);
    expect(await screen.findByText('Adres: /login')).toBeInTheDocument();
  });

  it('sends a person without a session and with an unknown form to /login, not to the recovery', async () => {
    const unknown = {
      status: 404,
      body: { error: { code: 404, status: 'Not Found', message: 'Unable to locate the resource' } },
    };
    recoveredNetwork({
      flow: unknown,
      session: { status: 401, body: { error: { id: 'session_inactive', code: 401 } } },
    });
    const { unmount } = renderAt('/settings?flow=bestaat-niet', routes);
    expect(await screen.findByText('Adres: /login')).toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();
    recoveredNetwork({ flow: unknown });
    renderAt('/settings?flow=bestaat-niet', routes);
    expect(await screen.findByRole('heading', { level: 1, name: 'Herstel je wachtwoord' })).toBeInTheDocument();
  });
});
