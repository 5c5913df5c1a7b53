import { IdpResponseError } from '../api/ory';
import { describe, expect, it, vi } from 'vitest';
import { handleFlowError, portalPathOf, REFRESH_NOTICE } from './flow-errors';

const failure = (status: number, body: unknown) => new IdpResponseError(new Response(JSON.stringify(body), { status }));
const actions = () => ({ navigate: vi.fn(), restart: vi.fn(), followFlow: vi.fn() });

describe('flow error handler', () => {
  it('maps the provider browser endpoints onto the portal screens', () => {
    expect(portalPathOf(`${window.location.origin}/self-service/login/browser?aal=aal2`)).toBe('/login?aal=aal2');
    expect(portalPathOf('https://elders.example.com/x')).toBe('/');
  });

  it('sends session_aal2_required to the given address, adding return_to for settings', async () => {
    const a = actions();
    await handleFlowError(
      failure(403, {
        error: { id: 'session_aal2_required' },
        redirect_browser_to: `${window.location.origin}/self-service/login/browser?aal=aal2`,
      }),
      'settings',
      a,
    );
    expect(a.navigate.mock.calls[0]![0]).toMatch(/^\/login\?aal=aal2&return_to=/);
    const b = actions();
    await handleFlowError(failure(403, { error: { id: 'session_aal2_required' } }), 'login', b);
    expect(b.navigate).toHaveBeenCalledWith('/login?aal=aal2');
  });

  it('sends session_refresh_required to sign in again, back to the screen, and says why', async () => {
    const a = actions();
    await handleFlowError(
      failure(403, {
        error: { id: 'session_refresh_required' },
        redirect_browser_to:
          `${window.location.origin}/self-service/login/browser?refresh=true&return_to=` +
          encodeURIComponent(`${window.location.origin}/self-service/settings?flow=f1`),
      }),
      'settings',
      a,
    );
    const [to, notice] = a.navigate.mock.calls[0]!;
    const target = new URL(to, window.location.origin);
    expect(target.pathname).toBe('/login');
    expect(target.searchParams.get('refresh')).toBe('true');
    expect(target.searchParams.get('return_to')).toBe(window.location.href);
    expect(notice).toBe(REFRESH_NOTICE);
  });

  it('sends session_already_available to /permissies', async () => {
    const a = actions();
    await handleFlowError(failure(400, { error: { id: 'session_already_available' } }), 'login', a);
    expect(a.navigate).toHaveBeenCalledWith('/permissies');
  });

  it.each([
    'self_service_flow_return_to_forbidden',
    'self_service_flow_expired',
    'security_csrf_violation',
    'security_identity_mismatch',
  ])('restarts the flow on %s', async (id) => {
    const a = actions();
    await handleFlowError(failure(400, { error: { id } }), 'settings', a);
    expect(a.restart).toHaveBeenCalled();
  });

  it('follows use_flow_id on a 410, goes to /login on a 401, and returns a validation flow to show', async () => {
    const a = actions();
    await handleFlowError(
      failure(410, { error: { id: 'self_service_flow_expired' }, use_flow_id: 'nieuw' }),
      'login',
      a,
    );
    expect(a.followFlow).toHaveBeenCalledWith('nieuw');
    const b = actions();
    await handleFlowError(failure(401, { error: { code: 401 } }), 'settings', b);
    expect(b.navigate).toHaveBeenCalledWith('/login');
    const flow = { id: 'f', ui: { nodes: [] } };
    expect(await handleFlowError(failure(400, flow), 'login', actions())).toEqual(flow);
  });

  it('rethrows what it does not know', async () => {
    await expect(handleFlowError(failure(500, { error: { code: 500 } }), 'login', actions())).rejects.toBeInstanceOf(
      IdpResponseError,
    );
  });
});
