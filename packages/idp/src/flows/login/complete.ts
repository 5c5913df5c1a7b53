import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../../services.js';
import type { IdentityRecord } from '../../identities/identity-repository.js';
import type { SessionRecord } from '../../sessions/session-repository.js';
import { sessionJson } from '../../sessions/session-json.js';
import { setSessionCookie } from '../../http/cookies.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { publicUrlOf } from '../../http/return-to.js';
import { saveFlow, type Flow } from '../flow.js';
import { redirect, sendJson, wantsRedirect } from '../flow-http.js';
import { returnUrlOf } from '../flow-request.js';

export interface IssuedSession {
  session: SessionRecord;
  token: string;
  identity: IdentityRecord;
}

/**
 * Sets the cookie (browser flows) and answers a finished login as Kratos does
 * (docs/kratos-compatibility.md#submitting-a-login-flow).
 */
export async function answerLoginSuccess(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  issued: IssuedSession,
): Promise<FastifyReply> {
  const { ctx } = services;
  flow.state = 'passed_challenge';
  await saveFlow(ctx.db.kysely, ctx.clock, flow);
  const now = ctx.clock.now();
  const json = sessionJson(ctx, issued.session, issued.identity);
  const returnUrl = returnUrlOf(services, flow.returnTo);
  if (flow.type === 'api') {
    return sendJson(reply, 200, { session_token: issued.token, session: json, continue_with: null });
  }
  setSessionCookie(reply, ctx.config, issued.token, new Date(issued.session.expiresAt), now);
  if (wantsRedirect(request, flow, true)) return redirect(reply, returnUrl);
  return sendJson(reply, 200, {
    session: json,
    continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: returnUrl }],
  });
}

/**
 * First factor done, second factor pending: the aal1 session is issued, then the browser is sent to the aal2 step
 * (303 for HTML, 422 `browser_location_change_required` for SPAs; docs/kratos-compatibility.md#the-second-factor-step).
 */
export async function answerSecondFactorRequired(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  issued: IssuedSession,
): Promise<FastifyReply> {
  const { ctx } = services;
  flow.state = 'passed_challenge';
  await saveFlow(ctx.db.kysely, ctx.clock, flow);
  const now = ctx.clock.now();
  if (flow.type === 'api') {
    const json = sessionJson(ctx, issued.session, issued.identity);
    return sendJson(reply, 200, {
      session_token: issued.token,
      session: { ...json, identity: null },
      continue_with: null,
    });
  }
  setSessionCookie(reply, ctx.config, issued.token, new Date(issued.session.expiresAt), now);
  const next = publicUrlOf(ctx.config, '/self-service/login/browser', {
    aal: 'aal2',
    return_to: flow.returnTo ?? undefined,
  });
  if (wantsRedirect(request, flow, true)) return redirect(reply, next);
  throw kratosErrors.browserLocationChangeRequired(next);
}
