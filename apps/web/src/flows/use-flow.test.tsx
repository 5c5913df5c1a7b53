import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RestartNotice } from '../components/RestartNotice';
import { Address, answerLater, fakeNetwork, posted, renderAt, unreachable } from '../test-support';
import type { FlowName } from './flow-errors';
import type { FlowOptions } from './flow-options';
import { useSelfServiceFlow } from './use-flow';

type Answer = { status: number; body?: unknown };

/** A flow as the provider sends it, with its own CSRF token. */
const flowOf = (id: string, messages?: unknown[]) => ({
  id,
  type: 'browser',
  state: 'choose_method',
  ui: {
    action: `${window.location.origin}/self-service/verification?flow=${id}`,
    method: 'POST',
    ...(messages ? { messages } : {}),
    nodes: [
      {
        type: 'input',
        group: 'default',
        attributes: { node_type: 'input', name: 'csrf_token', type: 'hidden', value: `csrf-${id}` },
        messages: [],
        meta: {},
      },
    ],
  },
});

const refusal = (status: number, id: string, extra: Record<string, unknown> = {}) => ({
  status,
  body: { error: { id, code: status }, ...extra },
});

/** A provider for one flow kind: new flows f1, f2, …; a flow fetched by id is that flow; a submit answers the flow. */
function provider(
  kind: FlowName,
  answers: { create?: () => Answer | undefined; get?: (id: string) => Answer; update?: (flow: string) => Answer } = {},
) {
  let made = 0;
  return fakeNetwork((url, init) => {
    if (url.pathname === `/self-service/${kind}/browser`)
      return answers.create?.() ?? { status: 200, body: flowOf(`f${++made}`) };
    if (url.pathname === `/self-service/${kind}/flows`) {
      const id = url.searchParams.get('id') ?? '';
      return answers.get?.(id) ?? { status: 200, body: flowOf(id) };
    }
    if (url.pathname === `/self-service/${kind}` && init?.method === 'POST') {
      const id = url.searchParams.get('flow') ?? '';
      return answers.update?.(id) ?? { status: 200, body: flowOf(id) };
    }
    return undefined;
  });
}

/** A screen that shows what the hook holds and sends one body. */
function Probe({ kind, options }: { kind: FlowName; options?: FlowOptions }) {
  const { flow, problem, submit } = useSelfServiceFlow(kind, options);
  const [sent, setSent] = useState('nog niet');
  return (
    <>
      <RestartNotice />
      <p>Flow: {flow?.id ?? 'geen'}</p>
      <p>Probleem: {problem ? `${problem.during} ${problem.cause}` : 'geen'}</p>
      <p>Verstuurd: {sent}</p>
      <button type="button" onClick={async () => setSent((await submit({ method: 'code' })).kind)}>
        Versturen
      </button>
      <Address />
    </>
  );
}

const routes = (options?: FlowOptions) => (
  <>
    <Route path="/verification" element={<Probe kind="verification" options={options} />} />
    <Route path="/registration" element={<Probe kind="registration" options={options} />} />
    <Route path="/settings/2fa-app" element={<Probe kind="settings" options={options} />} />
    <Route path="/settings" element={<Probe kind="settings" options={{ ...options, inAddress: false }} />} />
    <Route path="/login" element={<Address />} />
    <Route path="/permissies" element={<p>Datavoorzieningen-pagina</p>} />
  </>
);

const selfService = (calls: ReturnType<typeof fakeNetwork>) =>
  calls
    .filter((call) => call.url.pathname.startsWith('/self-service/'))
    .map((call) => `${call.init?.method ?? 'GET'} ${call.url.pathname}${call.url.search}`);

const send = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Versturen' }));
};

const RETURN_TO = encodeURIComponent(`${window.location.origin}/settings`);
const EXPIRED = 'Het formulier was verlopen. Vul het opnieuw in.';
const CSRF =
  'Het formulier kon niet veilig worden verstuurd. Misschien was het verlopen of in een ander ' +
  'venster geopend. Vul het opnieuw in.';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('useSelfServiceFlow', () => {
  it("makes a flow with the address's return_to, keeps return_to after its id and fetches it no more", async () => {
    const calls = provider('verification');
    renderAt(`/verification?return_to=${RETURN_TO}`, routes());
    expect(await screen.findByText(`Adres: /verification?flow=f1&return_to=${RETURN_TO}`)).toBeInTheDocument();
    expect(screen.getByText('Flow: f1')).toBeInTheDocument();
    expect(selfService(calls)).toEqual([`GET /self-service/verification/browser?return_to=${RETURN_TO}`]);
  });

  it('puts no flow in the address once the person left the screen while it loaded', async () => {
    provider('verification');
    const release = answerLater((url) => url.pathname === '/self-service/verification/browser');
    renderAt(
      '/verification',
      <>
        <Route
          path="/verification"
          element={
            <>
              <Probe kind="verification" />
              <Link to="/permissies">Weg</Link>
            </>
          }
        />
        <Route path="/permissies" element={<Address />} />
      </>,
    );
    await userEvent.click(screen.getByRole('link', { name: 'Weg' }));
    await screen.findByText('Adres: /permissies');
    await act(async () => {
      release();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.getByText(/^Adres: /).textContent).toBe('Adres: /permissies');
  });

  it('fetches the flow named in the address instead of making one', async () => {
    const calls = provider('verification');
    renderAt('/verification?flow=v7', routes());
    expect(await screen.findByText('Flow: v7')).toBeInTheDocument();
    expect(selfService(calls)).toEqual(['GET /self-service/verification/flows?id=v7']);
  });

  it('makes a new flow when the one in the address is unknown', async () => {
    provider('verification', { get: () => ({ status: 404, body: { error: { code: 404 } } }) });
    renderAt('/verification?flow=bestaat-niet', routes());
    expect(await screen.findByText('Adres: /verification?flow=f1')).toBeInTheDocument();
    expect(screen.getByText('Flow: f1')).toBeInTheDocument();
  });

  it('follows the replacing flow of an expired one, keeping the return_to', async () => {
    const calls = provider('verification', {
      update: () => refusal(410, 'self_service_flow_expired', { use_flow_id: 'f9' }),
    });
    renderAt(`/verification?return_to=${RETURN_TO}`, routes());
    await screen.findByText('Flow: f1');
    await send();
    expect(await screen.findByText(`Adres: /verification?flow=f9&return_to=${RETURN_TO}`)).toBeInTheDocument();
    expect(await screen.findByText('Flow: f9')).toBeInTheDocument();
    expect(screen.getByText('Verstuurd: handled')).toBeInTheDocument();
    expect(selfService(calls).at(-1)).toBe('GET /self-service/verification/flows?id=f9');
  });

  it('starts over with a new flow and says why when the flow expired without a replacement', async () => {
    provider('verification', { update: () => refusal(410, 'self_service_flow_expired') });
    renderAt('/verification', routes());
    await screen.findByText('Flow: f1');
    await send();
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument();
    expect(await screen.findByText('Adres: /verification?flow=f2')).toBeInTheDocument();
    expect(screen.getByText('Flow: f2')).toBeInTheDocument();
  });

  it("sends the flow's CSRF token, and starts over with a new flow and says why after a CSRF refusal", async () => {
    const calls = provider('settings', { update: () => refusal(403, 'security_csrf_violation') });
    renderAt('/settings/2fa-app?herstel=1', routes());
    await screen.findByText('Flow: f1');
    await send();
    expect(await screen.findByText(CSRF)).toBeInTheDocument();
    expect(await screen.findByText('Adres: /settings/2fa-app?flow=f2')).toBeInTheDocument();
    expect(posted(calls)).toEqual([{ flow: 'f1', body: { method: 'code', csrf_token: 'csrf-f1' } }]);
    expect(selfService(calls).filter((call) => call.includes('/browser'))).toHaveLength(2);
  });

  it('says when the server is out of reach while loading', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    provider('verification');
    unreachable((url) => url.pathname.startsWith('/self-service/'));
    renderAt('/verification', routes());
    expect(await screen.findByText('Probleem: load unreachable')).toBeInTheDocument();
    expect(screen.getByText('Flow: geen')).toBeInTheDocument();
  });

  it('says when a submit did not reach the server or met an unknown answer, and keeps the flow', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let answer: Answer = { status: 500, body: { error: { code: 500 } } };
    provider('verification', { update: () => answer });
    renderAt('/verification', routes());
    await screen.findByText('Flow: f1');
    await send();
    expect(await screen.findByText('Probleem: submit failed')).toBeInTheDocument();
    expect(screen.getByText('Verstuurd: failed')).toBeInTheDocument();
    answer = { status: 502 };
    await send();
    expect(await screen.findByText('Probleem: submit unreachable')).toBeInTheDocument();
    expect(screen.getByText('Flow: f1')).toBeInTheDocument();
  });

  it('sends a session that needs its second factor to the code step, and back here afterwards', async () => {
    provider('settings', {
      create: () =>
        refusal(403, 'session_aal2_required', {
          redirect_browser_to: `${window.location.origin}/self-service/login/browser?aal=aal2`,
        }),
    });
    renderAt('/settings/2fa-app', routes());
    const address = await screen.findByText(/^Adres: \/login\?/);
    const query = new URLSearchParams(address.textContent!.replace(/^Adres: \/login\?/, ''));
    expect(query.get('aal')).toBe('aal2');
    expect(query.get('return_to')).toBe(window.location.href);
  });

  it('sends a person who is signed in already to /permissies', async () => {
    provider('registration', { create: () => refusal(400, 'session_already_available') });
    renderAt('/registration', routes());
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
  });

  it('shows the flow a refused submit answers with', async () => {
    const refused = flowOf('f1', [{ id: 4070006, text: 'The verification code is invalid.', type: 'error' }]);
    provider('verification', { update: () => ({ status: 400, body: refused }) });
    renderAt('/verification', routes());
    await screen.findByText('Flow: f1');
    await send();
    expect(await screen.findByText('Verstuurd: refused')).toBeInTheDocument();
    expect(screen.getByText('Probleem: geen')).toBeInTheDocument();
  });

  it('sends submits in a row with the flow and token of each answer', async () => {
    let next = 1;
    const calls = provider('verification', { update: () => ({ status: 200, body: flowOf(`a${next++}`) }) });
    renderAt('/verification', routes());
    await screen.findByText('Flow: f1');
    await send();
    await screen.findByText('Flow: a1');
    await send();
    await screen.findByText('Flow: a2');
    expect(posted(calls)).toEqual([
      { flow: 'f1', body: { method: 'code', csrf_token: 'csrf-f1' } },
      { flow: 'a1', body: { method: 'code', csrf_token: 'csrf-a1' } },
    ]);
  });

  it('keeps the id out of the address when asked to, also when it starts over', async () => {
    provider('settings', { update: () => refusal(403, 'security_csrf_violation') });
    renderAt('/settings', routes());
    await screen.findByText('Flow: f1');
    expect(screen.getByText('Adres: /settings')).toBeInTheDocument();
    await send();
    expect(await screen.findByText(CSRF)).toBeInTheDocument();
    expect(await screen.findByText('Flow: f2')).toBeInTheDocument();
    expect(screen.getByText('Adres: /settings')).toBeInTheDocument();
  });

  it('lets the screen answer a failed submit first', async () => {
    provider('verification', { update: () => ({ status: 401, body: { error: { code: 401 } } }) });
    const seen: number[] = [];
    renderAt(
      '/verification',
      routes({
        onSubmitError: ({ status }) => {
          seen.push(status);
          return true;
        },
      }),
    );
    await screen.findByText('Flow: f1');
    await send();
    expect(await screen.findByText('Verstuurd: handled')).toBeInTheDocument();
    expect(seen).toEqual([401]);
    expect(screen.getByText('Adres: /verification?flow=f1')).toBeInTheDocument();
  });

  it('goes where the session rules say before loading a flow, and loads none then', async () => {
    const calls = provider('verification');
    renderAt('/verification', routes({ before: async () => '/permissies' }));
    expect(await screen.findByText('Datavoorzieningen-pagina')).toBeInTheDocument();
    expect(selfService(calls)).toEqual([]);
  });

  it('only fetches a flow named in the address when it may make none', async () => {
    const calls = provider('verification');
    renderAt('/verification', routes({ create: false }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByText('Flow: geen')).toBeInTheDocument();
    expect(selfService(calls)).toEqual([]);
  });
});
