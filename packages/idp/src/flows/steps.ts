import crypto from 'node:crypto';
import { kratosErrors } from '../errors/kratos-errors.js';
import type { UiText } from '../ui/messages.js';
import { clearMessages } from '../ui/nodes.js';
import { isExpired, type Flow } from './flow.js';
import type { FlowContext } from './flow-context.js';
import { ensureCsrf, ensureCsrfCookie, readSubmitBody } from './flow-http.js';
import type { Outcome } from './outcome.js';

/** A submitted flow that passed the opening steps, with the submitted body. */
export interface OpenedFlow {
  kind: 'opened';
  flow: Flow;
  body: Record<string, unknown>;
  /** Whether the body came as JSON (forms drop empty strings, JSON keeps them). */
  json: boolean;
  now: Date;
}

/** What a flow kind tells the opening steps. */
export interface Opening {
  /** A new flow of the same kind, stored, carrying `message`, to replace `old`. */
  restart(old: Flow, message: UiText): Promise<Flow>;
  /** The message of the flow that replaces an expired one. */
  expiredMessage(expiredAt: Date, now: Date): UiText;
  /** How JSON clients learn of the replacement of an expired flow: the 410 (default) or a 303 (recovery). */
  expiredAs?: 'expired' | 'see_other';
  /** A check between reading the body and the expiry check (registration: no session allowed). */
  guard?: (flow: Flow) => Promise<Outcome | undefined>;
  /** False for verification, whose code submissions are not CSRF-checked (docs/kratos-compatibility.md#csrf). */
  csrf?: boolean;
}

/** The flow of a submission, or 404 (docs/kratos-compatibility.md#flow-objects). */
export function requireFlow(ctx: FlowContext): Flow {
  if (!ctx.flow) throw kratosErrors.flowNotFound();
  return ctx.flow;
}

/**
 * The opening steps every submission shares: the flow must exist, the body is read, an expired flow is replaced by
 * a new one, the CSRF token is checked and the messages of the last answer are cleared.
 */
export async function openFlow(ctx: FlowContext, opening: Opening): Promise<OpenedFlow | Outcome> {
  const flow = requireFlow(ctx);
  const { body, json } = readSubmitBody(ctx.request);
  const refused = await opening.guard?.(flow);
  if (refused) return refused;
  const now = ctx.idp.clock.now();
  if (isExpired(flow, now)) {
    const expiredAt = new Date(flow.expiresAt);
    const replacement = await opening.restart(flow, opening.expiredMessage(expiredAt, now));
    const tell =
      opening.expiredAs === 'see_other' ? { as: 'see_other' as const } : { as: 'expired' as const, expiredAt, now };
    return { kind: 'replaced', replacement, tell };
  }
  if (opening.csrf !== false) ensureCsrf(ctx, flow, body);
  clearMessages(flow.ui);
  return { kind: 'opened', flow, body, json, now };
}

/** The real anti-CSRF token of a new flow: the browser's cookie (created when missing), or a random one for APIs. */
export const csrfTokenForNewFlow = (ctx: FlowContext): string =>
  ctx.type === 'browser' ? ensureCsrfCookie(ctx) : crypto.randomBytes(32).toString('base64');

/**
 * A session exists where none may: the browser goes to `to` (303, or 302 where Kratos sends one), others get 400
 * `session_already_available`.
 */
export const alreadySignedIn = (
  kind: 'login' | 'registration' | 'recovery',
  to: string,
  status: 302 | 303 = 303,
): Outcome => ({
  kind: 'browser_redirect',
  to,
  status,
  otherwise: { kind: 'error', error: kratosErrors.sessionAlreadyAvailable(kind) },
});
