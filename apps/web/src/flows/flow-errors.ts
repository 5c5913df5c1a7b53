import { idpErrorOf } from '../api/ory';

export type FlowName = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

export interface FlowErrorActions {
  /** Navigates inside the portal (a path with query), telling the person why there when `notice` is given. */
  navigate(to: string, notice?: string): void;
  /** Forgets the current flow and starts a new one, telling the person why when `notice` is given. */
  restart(notice?: string): void;
  /** Loads another flow of the same kind by id (a 410's `use_flow_id`). */
  followFlow(id: string): void;
}

/** Paths of the identity provider's browser endpoints map onto the portal's own screens. */
export function portalPathOf(url: string): string {
  const target = new URL(url, window.location.origin);
  if (target.origin !== window.location.origin) return '/';
  const flowScreens: Record<string, string> = {
    '/self-service/login/browser': '/login',
    '/self-service/registration/browser': '/registration',
    '/self-service/recovery/browser': '/recovery',
    '/self-service/verification/browser': '/verification',
    '/self-service/settings/browser': '/settings',
  };
  const screen = flowScreens[target.pathname];
  return `${screen ?? target.pathname}${target.search}`;
}

/** Why a form starts over, for the errors after which the person would otherwise meet an empty form unexplained. */
const RESTART_NOTICES: Record<string, string> = {
  self_service_flow_return_to_forbidden:
    'Het adres waar je hierna heen zou gaan, hoort niet bij het portaal. Je blijft daarom in het portaal.',
  self_service_flow_expired: 'Het formulier was verlopen. Vul het opnieuw in.',
  security_csrf_violation:
    'Het formulier kon niet veilig worden verstuurd. Misschien was het verlopen of in een ander ' +
    'venster geopend. Vul het opnieuw in.',
  security_identity_mismatch: 'Je bent intussen met een ander account ingelogd. Vul het formulier opnieuw in.',
};

/** Why a change of one's settings leads to the sign-in screen first (session_refresh_required). */
export const REFRESH_NOTICE =
  'Voor deze wijziging moet je eerst opnieuw inloggen, omdat je al een tijd geleden bent ' +
  'ingelogd. Daarna ga je terug naar je instellingen en doe je de wijziging nog een keer.';

/** The screen the person is on, without a flow id: where to come back to after signing in again. */
function currentScreen(): string {
  const here = new URL(window.location.href);
  here.searchParams.delete('flow');
  return here.toString();
}

/**
 * The flow error handler, by error id and by status (apps/web/README.md). Returns the flow body when the error is a
 * validation answer (400 with a flow) that the caller shows; otherwise acts (navigates, restarts) and returns
 * undefined. Unknown errors are rethrown.
 */
export async function handleFlowError<T>(
  error: unknown,
  flow: FlowName,
  actions: FlowErrorActions,
): Promise<T | undefined> {
  const { status, body } = await idpErrorOf(error);
  const id = body.error?.id;
  const redirect = typeof body.redirect_browser_to === 'string' ? body.redirect_browser_to : undefined;
  switch (id) {
    case 'session_aal2_required': {
      if (!redirect) return void actions.navigate('/login?aal=aal2');
      const target = new URL(redirect, window.location.origin);
      if (flow === 'settings') target.searchParams.set('return_to', window.location.href);
      return void actions.navigate(portalPathOf(target.toString()));
    }
    case 'session_already_available':
      return void actions.navigate('/permissies');
    case 'session_refresh_required': {
      if (!redirect) return void actions.navigate('/login?refresh=true', REFRESH_NOTICE);
      // Back to this screen afterwards: the provider's own return_to (its settings endpoint) is no portal screen.
      const target = new URL(redirect, window.location.origin);
      if (flow === 'settings') target.searchParams.set('return_to', currentScreen());
      return void actions.navigate(portalPathOf(target.toString()), REFRESH_NOTICE);
    }
    case 'browser_location_change_required':
      return void actions.navigate(redirect ? portalPathOf(redirect) : `/${flow}`);
    case 'self_service_flow_return_to_forbidden':
    case 'self_service_flow_expired':
    case 'security_csrf_violation':
    case 'security_identity_mismatch':
      if (typeof body.use_flow_id === 'string') return void actions.followFlow(body.use_flow_id);
      return void actions.restart(RESTART_NOTICES[id]);
    default:
      break;
  }
  if (status === 400 && body.ui) return body as T;
  if (status === 502 || status === 0) {
    console.error('De server is niet bereikbaar. Probeer het over een paar minuten opnieuw.');
    return undefined;
  }
  if (status === 410) {
    if (typeof body.use_flow_id === 'string') return void actions.followFlow(body.use_flow_id);
    return void actions.restart(RESTART_NOTICES.self_service_flow_expired);
  }
  if (status === 401) return void actions.navigate('/login');
  if (status === 404 || status === 403) return void actions.restart();
  throw error;
}

/** How a failed flow call ended once the flow error handler has seen it. */
export type FlowFailure<T> =
  /** The provider answered with the flow and its messages (a validation answer), to show. */
  | { kind: 'refused'; flow: T }
  /** The handler acted: it navigated, started over or followed a replacing flow. */
  | { kind: 'handled' }
  /** The server could not be reached. */
  | { kind: 'unreachable' }
  /** The server was too busy to take it (503, such as a sign-in while every password check is in use). */
  | { kind: 'busy' }
  /** An answer the handler does not know, such as a 500. */
  | { kind: 'failed' };

/** Runs the flow error handler and says how the failure ended, for the screen to show what it could not act on. */
export async function settleFlowError<T>(
  error: unknown,
  flow: FlowName,
  actions: FlowErrorActions,
): Promise<FlowFailure<T>> {
  const { status } = await idpErrorOf(error);
  try {
    const shown = await handleFlowError<T>(error, flow, actions);
    if (shown) return { kind: 'refused', flow: shown };
  } catch {
    return status === 503 ? { kind: 'busy' } : { kind: 'failed' };
  }
  return status === 0 || status === 502 ? { kind: 'unreachable' } : { kind: 'handled' };
}
