import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpErrorOf } from '../errors/known-errors.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { setSessionCookie } from '../http/cookies.js';
import { isJsonRequest, prefersJson } from '../http/negotiation.js';
import { publicUrlOf, uiUrl } from '../http/return-to.js';
import type { Flow, FlowType } from './flow.js';
import { flowJson } from './flow-json.js';
import { NO_CACHE, sendJson } from '../http/send-json.js';
import { flowUiUrl } from './flow-http.js';
import type { AnsweredContext } from './flow-context.js';
import { storeBrowserError, writeOutcome } from './outcome-writes.js';
import type { IssuedSession, Outcome } from './outcome.js';

/**
 * The three ways a self-service request is answered (docs/kratos-compatibility.md#browser-spa-and-api-modes):
 * `redirect` for browser flows whose request asked for HTML, `json` for browser flows of a single-page app, `api` for
 * API flows. This module is the only one that chooses, and the only one that answers differently for each.
 */
export type AnswerMode = 'redirect' | 'json' | 'api';

/** Creating a flow (and logout): HTML, the default, is a browser; API flows always get JSON. */
export const creationMode = (request: FastifyRequest, type: FlowType): AnswerMode =>
  type === 'api' ? 'api' : prefersJson(request.headers.accept) ? 'json' : 'redirect';

/** Submitting a flow: the stored flow's type (browser when none was found) and Kratos' IsJSONRequest. */
export const submissionMode = (request: FastifyRequest, flow: Flow | undefined): AnswerMode =>
  flow?.type === 'api' ? 'api' : isJsonRequest(request) ? 'json' : 'redirect';

const redirect = (reply: FastifyReply, location: string, status = 303): FastifyReply =>
  reply.code(status).header('Cache-Control', NO_CACHE).header('Location', location).send();

/**
 * Runs a flow's step, makes the writes its outcome asks for (outcome-writes.ts) and answers it for the context's mode.
 * HttpErrors of `redirect` requests are stored and shown on the error page; all others reach the error handler,
 * which sends the herodot envelope.
 */
export async function answer(
  ctx: AnsweredContext,
  step: (ctx: AnsweredContext) => Promise<Outcome>,
): Promise<FastifyReply> {
  try {
    const outcome = await step(ctx);
    await writeOutcome(ctx, outcome);
    ctx.effects.applyTo(ctx.reply, ctx.idp.config);
    return send(ctx, outcome);
  } catch (error) {
    ctx.effects.applyTo(ctx.reply, ctx.idp.config);
    const known = httpErrorOf(error);
    if (ctx.mode === 'redirect' && known && ctx.request.method !== 'HEAD')
      return redirect(ctx.reply, uiUrl(ctx.idp.config, 'error', { id: await storeBrowserError(ctx, known) }));
    throw error;
  }
}

function send(ctx: AnsweredContext, outcome: Outcome): FastifyReply {
  const { reply } = ctx;
  const { config } = ctx.idp;
  switch (outcome.kind) {
    case 'flow':
      if (ctx.mode === 'redirect') return redirect(reply, outcome.browserTo ?? flowUiUrl(ctx.services, outcome.flow));
      return sendJson(reply, outcome.status, flowJson(outcome.flow, config, outcome.identity));
    case 'replaced':
      return sendReplaced(ctx, outcome);
    case 'completed':
      return sendCompleted(ctx, outcome);
    case 'continue_elsewhere':
      if (outcome.flow.type === 'api') return send(ctx, outcome.forApi);
      setCookieOf(ctx, outcome.issued);
      if (ctx.mode === 'redirect') return redirect(reply, outcome.to);
      throw kratosErrors.browserLocationChangeRequired(outcome.to);
    case 'redirect':
      return redirect(reply, outcome.to, outcome.status);
    case 'browser_redirect':
      if (ctx.mode === 'redirect') return redirect(reply, outcome.to, outcome.status);
      return send(ctx, outcome.otherwise);
    case 'error':
      throw outcome.error;
    case 'json':
      return sendJson(reply, outcome.status, outcome.body);
    case 'no_content':
      return reply.code(204).send();
  }
}

function sendReplaced(ctx: AnsweredContext, outcome: Extract<Outcome, { kind: 'replaced' }>): FastifyReply {
  const { replacement, tell } = outcome;
  if (ctx.mode === 'redirect') return redirect(ctx.reply, flowUiUrl(ctx.services, replacement));
  switch (tell.as) {
    case 'expired':
      throw kratosErrors.flowExpired(replacement.id, tell.expiredAt, tell.now);
    case 'replaced':
      throw kratosErrors.flowReplaced(replacement.id);
    case 'see_other':
      return redirect(
        ctx.reply,
        publicUrlOf(ctx.idp.config, `/self-service/${replacement.kind}/flows`, { id: replacement.id }),
      );
  }
}

function sendCompleted(ctx: AnsweredContext, outcome: Extract<Outcome, { kind: 'completed' }>): FastifyReply {
  const { issued, body, returnUrl } = outcome;
  if (ctx.mode === 'api') {
    return sendJson(ctx.reply, 200, {
      ...(issued ? { session_token: issued.token } : {}),
      ...body,
      continue_with: null,
    });
  }
  if (issued) setCookieOf(ctx, issued);
  if (ctx.mode === 'redirect') return redirect(ctx.reply, returnUrl);
  return sendJson(ctx.reply, 200, {
    ...body,
    continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: returnUrl }],
  });
}

function setCookieOf(ctx: AnsweredContext, issued: IssuedSession): void {
  const { config, clock } = ctx.idp;
  setSessionCookie(ctx.reply, config, issued.token, new Date(issued.session.expiresAt), issued.now ?? clock.now());
}
