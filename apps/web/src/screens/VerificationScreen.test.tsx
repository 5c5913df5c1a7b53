import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Address, fakeNetwork, holdBack, posted, renderAt, stepsOf, unreachable } from '../test-support';
import { axeViolations } from '../test-axe';
import VerificationScreen from './VerificationScreen';

type Answer = { status: number; body?: unknown };
type Label = { id: number; text: string };

// Verification flows as the provider sends them (docs/kratos-compatibility.md; packages/idp flows/verification).
const input = (name: string, type: string, label?: Label, value?: unknown, messages: unknown[] = []) => ({
  type: 'input',
  group: name === 'csrf_token' ? 'default' : 'code',
  attributes: {
    name,
    type,
    ...(value === undefined ? {} : { value }),
    required: type !== 'submit' && type !== 'hidden' ? true : undefined,
    disabled: false,
    node_type: 'input',
  },
  messages,
  meta: label ? { label: { ...label, type: 'info' } } : {},
});
const csrf = input('csrf_token', 'hidden', undefined, 'csrf-v');
const continueButton = input('method', 'submit', { id: 1070009, text: 'Continue' }, 'code');
const flow = (id: string, state: string, nodes: unknown[], messages?: unknown[], ui: Record<string, unknown> = {}) => ({
  id,
  type: 'browser',
  state,
  ui: {
    action: `${window.location.origin}/self-service/verification?flow=${id}`,
    method: 'POST',
    nodes,
    ...(messages ? { messages } : {}),
    ...ui,
  },
});
const chooseMethod = (id = 'v1', emailMessages: unknown[] = []) =>
  flow(id, 'choose_method', [
    csrf,
    input('email', 'email', { id: 1070007, text: 'Email' }, undefined, emailMessages),
    continueButton,
  ]);
const sentEmail = (
  id = 'v1',
  messages: unknown[] = [
    {
      id: 1080003,
      text:
        'An email containing a verification code has been sent to the email address you provided. If ' +
        'you have not received an email, check the spelling of the address and make sure to use the ' +
        'address you registered with.',
      type: 'info',
    },
  ],
  code?: string,
) =>
  flow(
    id,
    'sent_email',
    [
      csrf,
      input('method', 'hidden', undefined, 'code'),
      {
        ...input('code', 'text', { id: 1070011, text: 'Verification code' }, code),
        attributes: { ...input('code', 'text', undefined, code).attributes, autocomplete: 'one-time-code' },
      },
      continueButton,
      input('email', 'submit', { id: 1070008, text: 'Resend code' }, 'anna@voorbeeldstad.nl'),
    ],
    messages,
  );
const passed = (id = 'v1') =>
  flow(
    id,
    'passed_challenge',
    [
      {
        type: 'a',
        group: 'code',
        attributes: {
          href: `${window.location.origin}/permissies`,
          title: { id: 1070009, text: 'Continue', type: 'info' },
          id: 'continue',
          node_type: 'a',
        },
        messages: [],
        meta: { label: { id: 1070009, text: 'Continue', type: 'info' } },
      },
    ],
    [{ id: 1080002, text: 'You successfully verified your email address.', type: 'success' }],
    { method: 'GET', action: `${window.location.origin}/permissies` },
  );

function network(
  options: {
    create?: () => Answer;
    get?: (id: string) => Answer;
    update?: (body: Record<string, unknown>, flowId: string) => Answer;
    whoami?: () => Answer;
  } = {},
) {
  return fakeNetwork((url, init) => {
    if (url.pathname === '/self-service/verification/browser')
      return options.create?.() ?? { status: 200, body: chooseMethod() };
    if (url.pathname === '/self-service/verification/flows')
      return (
        options.get?.(url.searchParams.get('id') ?? '') ?? {
          status: 404,
          body: { error: { code: 404, status: 'Not Found', message: 'Unable to locate the resource' } },
        }
      );
    if (url.pathname === '/self-service/verification' && init?.method === 'POST')
      return options.update?.(JSON.parse(String(init.body)), url.searchParams.get('flow') ?? '');
    if (url.pathname === '/api/users/whoami') return options.whoami?.();
    return undefined;
  });
}

const routes = (
  <>
    <Route
      path="/verification"
      element={
        <>
          <VerificationScreen />
          <Address />
        </>
      }
    />
    <Route path="/permissies" element={<Address />} />
  </>
);

afterEach(() => vi.unstubAllGlobals());

describe('VerificationScreen', () => {
  it('shows the heading, the three steps, the way back to login and Laden… while the flow is made', async () => {
    network();
    holdBack((url) => url.pathname === '/self-service/verification/browser');
    const { container } = renderAt('/verification', routes);
    expect(screen.getByRole('heading', { level: 1, name: 'Verifieer je account' })).toBeInTheDocument();
    expect(stepsOf()).toEqual(['1Account verifiëren [nu]', '22FA configureren', '3Klaar!']);
    expect(screen.getByRole('status')).toHaveTextContent('Laden…');
    expect(screen.getByRole('link', { name: 'Ga naar de login pagina' })).toHaveAttribute('href', '/login');
    expect(document.title).toBe('Verifieer je account – Datavoorzieningen Portaal');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('makes a browser flow, keeps its id in the address and asks for the e-mail address', async () => {
    const calls = network();
    const { container } = renderAt('/verification', routes);
    const email = await screen.findByLabelText('E-mailadres');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(email).toBeRequired();
    expect(screen.getByRole('button', { name: 'Verder' })).toBeEnabled();
    expect(screen.queryByRole('status')).toBeNull();
    expect(await screen.findByText('Adres: /verification?flow=v1')).toBeInTheDocument();
    const made = calls.filter((call) => call.url.pathname.startsWith('/self-service/'));
    expect(made.map((call) => call.url.pathname)).toEqual(['/self-service/verification/browser']);
    expect(new Headers(made[0]!.init?.headers).get('Accept')).toBe('application/json');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('passes a return_to in the address on to the provider', async () => {
    const calls = network();
    renderAt(`/verification?return_to=${encodeURIComponent(`${window.location.origin}/settings`)}`, routes);
    await screen.findByLabelText('E-mailadres');
    expect(
      calls
        .find((call) => call.url.pathname === '/self-service/verification/browser')
        ?.url.searchParams.get('return_to'),
    ).toBe(`${window.location.origin}/settings`);
  });

  it('sends the address with method code, then says a code was mailed and asks for it', async () => {
    const calls = network({ update: () => ({ status: 200, body: sentEmail() }) });
    const { container } = renderAt('/verification', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'anna@voorbeeldstad.nl');
    await userEvent.click(screen.getByRole('button', { name: 'Verder' }));
    const code = await screen.findByLabelText('Verificatiecode');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Als het e-mailadres bij een account hoort, hebben we een e-mail gestuurd met een verificatiecode.',
    );
    expect(screen.getByRole('button', { name: 'Verder' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Code opnieuw sturen' })).toHaveAttribute(
      'value',
      'anna@voorbeeldstad.nl',
    );
    expect(posted(calls)).toEqual([
      { flow: 'v1', body: { csrf_token: 'csrf-v', email: 'anna@voorbeeldstad.nl', method: 'code' } },
    ]);
    expect(document.title).toBe('Verifieer je account – code uit de e-mail invullen – Datavoorzieningen Portaal');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows a missing address in Dutch under the field, tied to it, with the error summary', async () => {
    network({
      update: () => ({
        status: 400,
        body: chooseMethod('v1', [
          { id: 4000002, text: 'Property email is missing.', type: 'error', context: { property: 'email' } },
        ]),
      }),
    });
    const { container } = renderAt('/verification', routes);
    await userEvent.click(await screen.findByRole('button', { name: 'Verder' }));
    const summary = await screen.findByRole('alert');
    expect(summary).toHaveTextContent('Controleer de volgende velden:Vul je e-mailadres in.');
    const email = screen.getByLabelText('E-mailadres');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')).toHaveTextContent(
      'Vul je e-mailadres in.',
    );
    await waitFor(() => expect(summary).toHaveFocus());
    expect(await axeViolations(container)).toEqual([]);
  });

  it('sends the code, and says so in Dutch when it is wrong', async () => {
    const calls = network({
      create: () => ({ status: 200, body: sentEmail() }),
      update: () => ({
        status: 200,
        body: sentEmail('v1', [
          {
            id: 4070006,
            text: 'The verification code is invalid or has already been used. Please try again.',
            type: 'error',
          },
        ]),
      }),
    });
    const { container } = renderAt('/verification', routes);
    await userEvent.type(await screen.findByLabelText('Verificatiecode'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'De verificatiecode is ongeldig of al gebruikt. Probeer het opnieuw.',
    );
    expect(posted(calls)).toEqual([{ flow: 'v1', body: { csrf_token: 'csrf-v', method: 'code', code: '123456' } }]);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('confirms the verified address and leads on to the authenticator app as step 2', async () => {
    network({ create: () => ({ status: 200, body: sentEmail() }), update: () => ({ status: 200, body: passed() }) });
    const { container } = renderAt('/verification', routes);
    await userEvent.type(await screen.findByLabelText('Verificatiecode'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verder' }));
    expect(await screen.findByRole('link', { name: 'Verder: authenticator-app instellen' })).toHaveAttribute(
      'href',
      '/settings/2fa-app',
    );
    // One way on: the provider's 'Verder' to its return address is not offered beside it.
    expect(screen.queryByRole('link', { name: 'Verder' })).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Je e-mailadres is bevestigd.');
    expect(stepsOf()).toEqual(['✓Account verifiëren (klaar)', '22FA configureren [nu]', '3Klaar!']);
    expect(screen.queryByLabelText('Verificatiecode')).toBeNull();
    expect(document.title).toBe('Verifieer je account – account geverifieerd – Datavoorzieningen Portaal');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('leads a signed-in person whose app is linked on with the provider’s Verder only', async () => {
    network({
      create: () => ({ status: 200, body: sentEmail() }),
      update: () => ({ status: 200, body: passed() }),
      whoami: () => ({ status: 200, body: { identity: { credentials: ['password', 'totp'] } } }),
    });
    const { container } = renderAt('/verification', routes);
    await userEvent.type(await screen.findByLabelText('Verificatiecode'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verder' }));
    expect(await screen.findByRole('link', { name: 'Verder' })).toHaveAttribute(
      'href',
      `${window.location.origin}/permissies`,
    );
    expect(screen.queryByRole('link', { name: 'Verder: authenticator-app instellen' })).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Je e-mailadres is bevestigd.');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('opens the flow of the mailed link from the address, with the code filled in', async () => {
    const calls = network({
      get: (id) => (id === 'v9' ? { status: 200, body: sentEmail('v9', [], '654321') } : { status: 404 }),
    });
    const { container } = renderAt('/verification?flow=v9', routes);
    expect(await screen.findByLabelText('Verificatiecode')).toHaveValue('654321');
    expect(await axeViolations(container)).toEqual([]);
    expect(
      calls
        .filter((call) => call.url.pathname.startsWith('/self-service/'))
        .map((call) => `${call.url.pathname}${call.url.search}`),
    ).toEqual(['/self-service/verification/flows?id=v9']);
  });

  it('follows use_flow_id when the provider answers 410, showing the new flow and its message', async () => {
    const replacement = chooseMethod('v2');
    const calls = network({
      create: () => ({ status: 200, body: sentEmail() }),
      get: (id) =>
        id === 'v2'
          ? {
              status: 200,
              body: {
                ...replacement,
                ui: {
                  ...replacement.ui,
                  messages: [
                    {
                      id: 4070002,
                      text: 'The request was already completed successfully and can not be retried.',
                      type: 'error',
                    },
                  ],
                },
              },
            }
          : { status: 404 },
      update: () => ({
        status: 410,
        body: {
          error: {
            id: 'self_service_flow_replaced',
            code: 410,
            status: 'Gone',
            reason: 'An error occured, please use the new flow.',
            message: 'self-service flow replaced',
          },
          use_flow_id: 'v2',
        },
      }),
    });
    const { container } = renderAt('/verification', routes);
    await userEvent.type(await screen.findByLabelText('Verificatiecode'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Je e-mailadres is al bevestigd.');
    expect(await screen.findByText('Adres: /verification?flow=v2')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mailadres')).toBeInTheDocument();
    expect(
      calls
        .filter((call) => call.url.pathname === '/self-service/verification/flows')
        .map((call) => call.url.searchParams.get('id')),
    ).toEqual(['v2']);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('starts over with a new flow and a Dutch notice after a CSRF refusal', async () => {
    let made = 0;
    network({
      create: () => ({ status: 200, body: chooseMethod(`v${++made}`) }),
      get: (id) => ({ status: 200, body: chooseMethod(id) }),
      update: () => ({
        status: 403,
        body: { error: { id: 'security_csrf_violation', code: 403, status: 'Forbidden' } },
      }),
    });
    const { container } = renderAt('/verification', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'anna@voorbeeldstad.nl');
    await userEvent.click(screen.getByRole('button', { name: 'Verder' }));
    expect(
      await screen.findByText(
        'Het formulier kon niet veilig worden verstuurd. Misschien was het verlopen of in een ander ' +
          'venster geopend. Vul het opnieuw in.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('Adres: /verification?flow=v2')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('E-mailadres')).toHaveValue(''));
    expect(await axeViolations(container)).toEqual([]);
  });

  it('makes a new flow when the one in the address is unknown', async () => {
    const calls = network();
    renderAt('/verification?flow=bestaat-niet', routes);
    expect(await screen.findByLabelText('E-mailadres')).toBeInTheDocument();
    expect(await screen.findByText('Adres: /verification?flow=v1')).toBeInTheDocument();
    expect(
      calls.filter((call) => call.url.pathname.startsWith('/self-service/')).map((call) => call.url.pathname),
    ).toEqual(['/self-service/verification/flows', '/self-service/verification/browser']);
  });

  it('says the server cannot be reached, and who to ask, instead of Laden… for ever or a silent form', async () => {
    network();
    unreachable((url) => url.pathname === '/self-service/verification/browser');
    const { unmount } = renderAt('/verification', routes);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'De server van het portaal is niet bereikbaar. Controleer je internetverbinding en probeer het ' +
        'over een paar minuten nog eens.',
    );
    expect(alert).toHaveTextContent('Blijft dit gebeuren? Neem dan contact op met de helpdesk van je organisatie.');
    expect(screen.queryByText('Laden…')).toBeNull();
    unmount();
    vi.unstubAllGlobals();
    network({ update: () => ({ status: 500, body: { error: { code: 500 } } }) });
    renderAt('/verification', routes);
    await userEvent.type(await screen.findByLabelText('E-mailadres'), 'anna@voorbeeldstad.nl');
    await userEvent.click(screen.getByRole('button', { name: 'Verder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Er is iets misgegaan in het portaal. Probeer het later nog eens.',
    );
  });
});
