import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Address, fakeNetwork, holdBack, posted, renderAt } from '../test-support';
import { axeViolations } from '../test-axe';
import { creationOptions, fakeAuthenticator } from '../test-webauthn';
import RegistrationScreen from './RegistrationScreen';

type Answer = { status: number; body?: unknown };
type Label = { id: number; text: string; context?: unknown };

// Registration flows as the provider sends them, in two steps.
// See docs/kratos-compatibility.md and packages/idp/src/flows/registration.
const input = (
  group: string,
  name: string,
  type: string,
  options: { label?: Label; value?: unknown; autocomplete?: string; messages?: unknown[] } = {},
) => ({
  type: 'input',
  group,
  attributes: {
    name,
    type,
    ...(options.value === undefined ? {} : { value: options.value }),
    ...(options.autocomplete ? { autocomplete: options.autocomplete } : {}),
    disabled: false,
    node_type: 'input',
  },
  messages: options.messages ?? [],
  meta: options.label ? { label: { ...options.label, type: 'info' } } : {},
});
const title = (text: string, name: string): Label => ({ id: 1070002, text, context: { title: text, name } });
const csrf = input('default', 'csrf_token', 'hidden', { value: 'csrf-r' });
const traits = (type: 'visible' | 'hidden', values: { email?: string; first?: string; last?: string } = {}) => [
  input('default', 'traits.email', type === 'hidden' ? 'hidden' : 'email', {
    label: title('E-Mail', 'traits.email'),
    value: values.email,
    autocomplete: type === 'hidden' ? undefined : 'email',
  }),
  input('default', 'traits.name.first', type === 'hidden' ? 'hidden' : 'text', {
    label: title('First Name', 'traits.name.first'),
    value: values.first,
  }),
  input('default', 'traits.name.last', type === 'hidden' ? 'hidden' : 'text', {
    label: title('Last Name', 'traits.name.last'),
    value: values.last,
  }),
];
const signUp: Label = { id: 1040001, text: 'Sign up' };
const flow = (nodes: unknown[], messages?: unknown[]) => ({
  id: 'r1',
  type: 'browser',
  state: 'choose_method',
  ui: {
    action: `${window.location.origin}/self-service/registration?flow=r1`,
    method: 'POST',
    nodes,
    ...(messages ? { messages } : {}),
  },
});
const profileStep = () =>
  flow([csrf, ...traits('visible'), input('profile', 'method', 'submit', { label: signUp, value: 'profile' })]);
const person = { email: 'nieuw@voorbeeldstad.nl', first: 'Noor', last: 'Nieuw' };
const credentialStep = (
  passwordMessages: unknown[] = [],
  messages: unknown[] = [
    { id: 1040009, text: 'Please choose a credential to authenticate yourself with.', type: 'info' },
  ],
) =>
  flow(
    [
      csrf,
      ...traits('hidden', person),
      input('password', 'password', 'password', {
        label: { id: 1070001, text: 'Password' },
        autocomplete: 'new-password',
        messages: passwordMessages,
      }),
      input('password', 'method', 'submit', { label: signUp, value: 'password' }),
      input('profile', 'screen', 'submit', { label: { id: 1040008, text: 'Back' }, value: 'previous' }),
    ],
    messages,
  );

function network(
  options: {
    registrationEnabled?: boolean;
    config?: Answer;
    create?: Answer;
    update?: (body: Record<string, unknown>) => Answer;
  } = {},
) {
  return fakeNetwork((url, init) => {
    if (url.pathname === '/api/config')
      return (
        options.config ?? {
          status: 200,
          body: { title: 'Datavoorzieningen VNG', registrationEnabled: options.registrationEnabled ?? false },
        }
      );
    if (url.pathname === '/self-service/registration/browser')
      return options.create ?? { status: 200, body: profileStep() };
    if (url.pathname === '/self-service/registration' && init?.method === 'POST')
      return options.update?.(JSON.parse(String(init.body)));
    return undefined;
  });
}

const routes = (
  <>
    <Route path="/registration" element={<RegistrationScreen />} />
    <Route path="/permissies" element={<Address />} />
  </>
);

const OFF_TEXT = 'Accounts worden gemaakt door de beheerder van je gemeente. Vraag hem of haar om een uitnodiging.';

afterEach(() => vi.unstubAllGlobals());

describe('RegistrationScreen', () => {
  it('shows Laden… while the configuration is read', async () => {
    network();
    holdBack((url) => url.pathname === '/api/config');
    const { container } = renderAt('/registration', routes);
    expect(screen.getByRole('heading', { level: 1, name: 'Account maken' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Laden…');
    expect(document.title).toBe('Account maken – Datavoorzieningen Portaal');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('explains that the administrator makes accounts when registration is off, and starts no flow', async () => {
    const calls = network({ registrationEnabled: false });
    const { container } = renderAt('/registration', routes);
    expect(await screen.findByText(OFF_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ga naar de login pagina' })).toHaveAttribute('href', '/login');
    expect(calls.some((call) => call.url.pathname.startsWith('/self-service/'))).toBe(false);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('treats a configuration that cannot be read as registration off', async () => {
    const calls = network({ config: { status: 500, body: { error: { code: 500 } } } });
    const { container } = renderAt('/registration', routes);
    expect(await screen.findByText(OFF_TEXT)).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
    expect(calls.some((call) => call.url.pathname.startsWith('/self-service/'))).toBe(false);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows Laden…, then the first step with Dutch labels and autocomplete, when registration is on', async () => {
    network({ registrationEnabled: true });
    holdBack((url) => url.pathname === '/self-service/registration/browser');
    const loading = renderAt('/registration', routes);
    expect(await screen.findByText('Laden…')).toHaveAttribute('role', 'status');
    expect(screen.queryByText(OFF_TEXT)).toBeNull();
    expect(await axeViolations(loading.container)).toEqual([]);
    loading.unmount();
    vi.unstubAllGlobals();
    const calls = network({ registrationEnabled: true });
    const { container } = renderAt('/registration', routes);
    const email = await screen.findByLabelText('E-mailadres');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText('Voornaam')).toHaveAttribute('autocomplete', 'given-name');
    expect(screen.getByLabelText('Achternaam')).toHaveAttribute('autocomplete', 'family-name');
    expect(screen.getByRole('button', { name: 'Account maken' })).toBeEnabled();
    expect(calls.some((call) => call.url.pathname === '/self-service/registration/browser')).toBe(true);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('sends the traits as a profile step, then the password, and says the account was made', async () => {
    const calls = network({
      registrationEnabled: true,
      update: (body) =>
        body.method === 'profile'
          ? { status: 400, body: credentialStep() }
          : {
              status: 200,
              body: {
                identity: {
                  id: 'n1',
                  traits: { email: person.email, name: { first: person.first, last: person.last } },
                },
                continue_with: [
                  { action: 'redirect_browser_to', redirect_browser_to: `${window.location.origin}/permissies` },
                ],
              },
            },
    });
    const { container } = renderAt('/registration', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), person.email);
    await userEvent.type(screen.getByLabelText('Voornaam'), person.first);
    await userEvent.type(screen.getByLabelText('Achternaam'), person.last);
    await userEvent.click(screen.getByRole('button', { name: 'Account maken' }));
    const password = await screen.findByLabelText('Wachtwoord');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(screen.getByRole('status')).toHaveTextContent('Kies hoe je wilt bevestigen dat jij het bent.');
    expect(screen.getByRole('button', { name: 'Terug' })).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.type(password, 'een-lang-wachtwoord');
    await userEvent.click(screen.getByRole('button', { name: 'Account maken' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Je account is gemaakt. We hebben je een e-mail gestuurd om je e-mailadres te bevestigen. ' +
        'Daarna kun je inloggen.',
    );
    expect(screen.queryByLabelText('Wachtwoord')).toBeNull();
    const traitsSent = { email: person.email, name: { first: person.first, last: person.last } };
    expect(posted(calls)).toEqual([
      { flow: 'r1', body: { csrf_token: 'csrf-r', traits: traitsSent, method: 'profile' } },
      {
        flow: 'r1',
        body: { csrf_token: 'csrf-r', traits: traitsSent, password: 'een-lang-wachtwoord', method: 'password' },
      },
    ]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows a refused password in Dutch under the field, tied to it', async () => {
    network({
      registrationEnabled: true,
      create: { status: 200, body: credentialStep([]) },
      update: () => ({
        status: 400,
        body: credentialStep(
          [
            {
              id: 4000034,
              text: 'The password has been found in data breaches and must no longer be used.',
              type: 'error',
              context: { breaches: 3 },
            },
          ],
          [],
        ),
      }),
    });
    const { container } = renderAt('/registration', routes);
    await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'wachtwoord');
    await userEvent.click(screen.getByRole('button', { name: 'Account maken' }));
    const text =
      'Dit wachtwoord staat in een lijst van gelekte of veelgebruikte wachtwoorden. Kies een ander wachtwoord.';
    await waitFor(() => expect(screen.getByLabelText('Wachtwoord')).toHaveAttribute('aria-invalid', 'true'));
    const password = screen.getByLabelText('Wachtwoord');
    expect(document.getElementById(password.getAttribute('aria-describedby') ?? '')).toHaveTextContent(text);
    expect(screen.getByRole('alert')).toHaveTextContent(`Controleer de volgende velden:${text}`);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows an existing account as a flow message in Dutch', async () => {
    network({
      registrationEnabled: true,
      create: { status: 200, body: credentialStep() },
      update: () => ({
        status: 400,
        body: credentialStep(
          [],
          [
            {
              id: 4000007,
              text: 'An account with the same identifier (email, phone, username, ...) exists already.',
              type: 'error',
            },
          ],
        ),
      }),
    });
    const { container } = renderAt('/registration', routes);
    await userEvent.type(await screen.findByLabelText('Wachtwoord'), 'een-lang-wachtwoord');
    await userEvent.click(screen.getByRole('button', { name: 'Account maken' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Er bestaat al een account met dit e-mailadres.');
    expect(screen.queryByText(/^Je account is gemaakt/)).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('sends a person who is signed in already to /permissies (session_already_available)', async () => {
    network({
      registrationEnabled: true,
      create: {
        status: 400,
        body: {
          error: {
            id: 'session_already_available',
            code: 400,
            status: 'Bad Request',
            reason: 'A valid session was detected and thus registration is not possible.',
          },
        },
      },
    });
    renderAt('/registration', routes);
    expect(await screen.findByText('Adres: /permissies')).toBeInTheDocument();
  });

  it('makes the account with a passkey instead of a password, sending the traits with it', async () => {
    const requests = fakeAuthenticator();
    const createData = JSON.stringify({
      credentialOptions: JSON.parse(creationOptions),
      displayNameFieldName: 'traits.email',
      displayNameFieldNames: ['traits.email'],
    });
    const withPasskey = flow([
      ...credentialStep().ui.nodes,
      input('passkey', 'passkey_create_data', 'hidden', { value: createData }),
      {
        ...input('passkey', 'passkey_register_trigger', 'button', {
          label: { id: 1040007, text: 'Sign up with passkey' },
        }),
        attributes: {
          name: 'passkey_register_trigger',
          type: 'button',
          onclickTrigger: 'oryPasskeyRegistration',
          node_type: 'input',
        },
      },
      input('passkey', 'passkey_register', 'hidden'),
    ]);
    const calls = network({
      registrationEnabled: true,
      create: { status: 200, body: withPasskey },
      update: () => ({ status: 200, body: { identity: { id: 'nieuw' } } }),
    });
    const { container } = renderAt('/registration', routes);
    const button = await screen.findByRole('button', { name: 'Account maken met een passkey' });
    expect(await axeViolations(container)).toEqual([]);
    await userEvent.click(button);
    await screen.findByText(/Je account is gemaakt/);
    expect(requests.map((r) => r.kind)).toEqual(['create']);
    const [sent] = posted(calls);
    expect(sent?.body).toMatchObject({
      method: 'passkey',
      traits: { email: person.email, name: { first: person.first, last: person.last } },
      passkey_register: expect.stringContaining('attestationObject'),
    });
    expect(sent?.body).not.toHaveProperty('passkey_create_data');
  });
});
