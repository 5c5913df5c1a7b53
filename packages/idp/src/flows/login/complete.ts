import { sessionJson } from '../../sessions/session-json.js';
import { publicUrlOf } from '../../http/return-to.js';
import { saveFlow, type Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { returnUrlOf } from '../flow-request.js';
import type { IssuedSession, Outcome } from '../outcome.js';

/** The login flow is done with: it cannot be submitted again. */
async function passChallenge(ctx: FlowContext, flow: Flow): Promise<void> {
  flow.state = 'passed_challenge';
  await saveFlow(ctx.idp.db.kysely, ctx.idp.clock, flow);
}

/**
 * A finished login: the session, with its cookie for browsers
 * (docs/kratos-compatibility.md#submitting-a-login-flow).
 */
export async function loginSucceeded(ctx: FlowContext, flow: Flow, issued: IssuedSession): Promise<Outcome> {
  await passChallenge(ctx, flow);
  const session = sessionJson(ctx.idp, issued.session, issued.identity);
  return { kind: 'completed', body: { session }, returnUrl: returnUrlOf(ctx.services, flow.returnTo), issued };
}

/**
 * First factor done, second factor pending: the aal1 session is issued, then the browser is sent to the aal2 step
 * (303 for HTML, 422 `browser_location_change_required` for SPAs; docs/kratos-compatibility.md#the-second-factor-step).
 * API clients get the session token and the session without its identity.
 */
export async function secondFactorRequired(ctx: FlowContext, flow: Flow, issued: IssuedSession): Promise<Outcome> {
  await passChallenge(ctx, flow);
  const to = publicUrlOf(ctx.idp.config, '/self-service/login/browser', {
    aal: 'aal2',
    return_to: flow.returnTo ?? undefined,
  });
  const session = { ...sessionJson(ctx.idp, issued.session, issued.identity), identity: null };
  const forApi: Outcome = {
    kind: 'json',
    status: 200,
    body: { session_token: issued.token, session, continue_with: null },
  };
  return { kind: 'continue_elsewhere', flow, issued, to, forApi };
}
