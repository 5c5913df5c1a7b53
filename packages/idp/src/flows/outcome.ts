import type { HttpError } from '../errors/herodot.js';
import type { IdentityRecord } from '../identities/identity-repository.js';
import type { SessionRecord } from '../sessions/session-repository.js';
import type { Flow } from './flow.js';

/** A session a step has just issued or upgraded, with its token (shown once) and identity. */
export interface IssuedSession {
  session: SessionRecord;
  token: string;
  identity: IdentityRecord;
  /** The time the session cookie's Max-Age counts from; the time of the answer when absent. */
  now?: Date;
}

/**
 * What a flow's step decided, independent of how the client asked. `answer.ts` is the one place that turns it into
 * the HTTP answer for the request's mode: a redirect for browsers that asked for HTML, JSON for SPAs and API clients
 * (docs/kratos-compatibility.md#browser-spa-and-api-modes).
 */
export type Outcome =
  /**
   * The flow itself, with its messages: JSON with `status`, or the browser to the flow's screen (or to `browserTo`).
   * With `save`, the flow's changes are stored first, and only when this outcome is the one answered.
   */
  | { kind: 'flow'; flow: Flow; status: number; save?: boolean; identity?: IdentityRecord; browserTo?: string }
  /** A new flow took the place of the submitted one: the browser goes to its screen, other clients are told how. */
  | { kind: 'replaced'; replacement: Flow; tell: ReplacedTell }
  /**
   * The flow is done: the session cookie is set for browsers, and `body` answered (with the session token and
   * `continue_with: null` for API clients, with a `redirect_browser_to` for SPAs), or the browser sent to `returnUrl`.
   */
  | { kind: 'completed'; body: Record<string, unknown>; returnUrl: string; issued?: IssuedSession }
  /**
   * A session was issued but the browser must go on elsewhere (the second factor, the settings after a recovery):
   * cookie set, then a redirect or 422 `browser_location_change_required`; API flows get `forApi` instead.
   */
  | { kind: 'continue_elsewhere'; flow: Flow; issued: IssuedSession; to: string; forApi: Outcome }
  /** A redirect whatever the mode (mail links, a verification link). */
  | { kind: 'redirect'; to: string; status?: 302 | 303 }
  /** Browsers that asked for HTML are redirected; everyone else gets `otherwise`. */
  | { kind: 'browser_redirect'; to: string; status?: 302 | 303; otherwise: Outcome }
  /** An error envelope; browsers that asked for HTML see it on the error page. */
  | { kind: 'error'; error: HttpError }
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'no_content' };

/** How JSON and API clients learn of a replacing flow: the 410 of an expired flow, of a finished one, or a 303. */
export type ReplacedTell =
  | { as: 'expired'; expiredAt: Date; now: Date }
  | { as: 'replaced' }
  /** Kratos without `use_continue_with_transitions` sends the client to the new flow itself (recovery). */
  | { as: 'see_other' };

/** The flow again with its messages (validation errors travel inside the flow), stored first; 400 unless told. */
export const flowAgain = (flow: Flow, status = 400, identity?: IdentityRecord): Outcome => ({
  kind: 'flow',
  flow,
  status,
  save: true,
  identity,
});

export const failWith = (error: HttpError): Outcome => ({ kind: 'error', error });
