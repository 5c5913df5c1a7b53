import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { verificationCodeMail } from '@portaal/nl';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { clientAddress } from '../../http/client-info.js';
import { findIdentityIdByAddress, markAddressSent, markAddressVerified } from '../../identities/identity-repository.js';
import { normaliseEmail, validateTraits } from '../../identities/identity-schema.js';
import { clientAddressKey, identifierKey } from '../../throttle/index.js';
import { consumeCode, issueCode } from '../../codes/one-time-codes.js';
import { messages, type UiText } from '../../ui/messages.js';
import {
  addFlowMessage,
  addNodeMessage,
  anchorNode,
  clearMessages,
  csrfNode,
  inputNode,
  setNodeValue,
  type UiNode,
} from '../../ui/nodes.js';
import {
  countSubmission,
  findFlow,
  insertFlow,
  isExpired,
  newFlow,
  saveFlow,
  type Flow,
  type FlowType,
} from '../flow.js';
import {
  ensureCsrf,
  ensureCsrfCookie,
  flowUiUrl,
  readSubmitBody,
  redirect,
  sendFlow,
  wantsRedirect,
  withBrowserErrors,
} from '../flow-http.js';
import { answerWithFlow } from '../flow-submit.js';
import { queryOf, requestUrlOf, returnToOf, returnUrlOf } from '../flow-request.js';

const MAX_CODE_SUBMISSIONS = 5;

const emailNodes = (): UiNode[] => [
  csrfNode(''),
  inputNode('code', 'email', 'email', { required: true, label: messages.email() }),
  inputNode('code', 'method', 'submit', { value: 'code', label: messages.continue() }),
];

const codeNodes = (email: string): UiNode[] => [
  csrfNode(''),
  inputNode('code', 'method', 'hidden', { value: 'code' }),
  inputNode('code', 'code', 'text', {
    required: true,
    autocomplete: 'one-time-code',
    label: messages.verificationCode(),
  }),
  inputNode('code', 'method', 'submit', { value: 'code', label: messages.continue() }),
  inputNode('code', 'email', 'submit', { value: email, label: messages.resendCode() }),
];

/** Creates a verification flow; with `email`, a code is sent right away (state `sent_email`, registration hook). */
export async function startVerificationFlow(
  services: IdpServices,
  init: { type: FlowType; requestUrl: string; csrfToken: string; returnTo: string | null; message?: UiText },
): Promise<Flow> {
  const flow = newFlow(services.ctx, services.ctx.config.lifespans.flowMs, {
    kind: 'verification',
    type: init.type,
    requestUrl: init.requestUrl,
    csrfToken: init.csrfToken,
    returnTo: init.returnTo,
    // Kratos' NewFlow sets the one enabled method at once; Ory Elements needs it to pick the form.
    active: 'code',
  });
  flow.ui.nodes = emailNodes();
  if (init.message) addFlowMessage(flow.ui, init.message);
  await insertFlow(services.ctx.db.kysely, flow);
  return flow;
}

/** Sends a verification code for a known address (unknown ones get nothing) and moves the flow to `sent_email`. */
export async function sendVerificationCode(
  services: IdpServices,
  flow: Flow,
  email: string,
  client: string,
): Promise<void> {
  const { db, clock, config } = services.ctx;
  const lockMs = config.throttling.lockMs;
  const limited =
    (await services.throttle.recordFailure(identifierKey('verification_mail', email), 5, lockMs, lockMs)).locked ||
    (await services.throttle.recordFailure(clientAddressKey('verification_mail', client), 30, lockMs, lockMs)).locked;
  const identityId = await findIdentityIdByAddress(db.kysely, email);
  await db.kysely.transaction().execute(async (trx) => {
    if (!identityId || limited) return;
    const code = await issueCode(trx, clock, {
      flowId: flow.id,
      purpose: 'verification_code',
      identityId,
      address: email,
      lifespanMs: config.lifespans.codeMs,
    });
    await services.mail.enqueue(trx, {
      to: email,
      ...verificationCodeMail({ code: code.value, validMinutes: Math.round(config.lifespans.codeMs / 60_000) }),
      templateType: 'verification_code',
    });
    await markAddressSent(trx, clock, email);
  });
  flow.state = 'sent_email';
  flow.active = 'code';
  flow.ui.nodes = codeNodes(email);
  flow.ui.messages = [messages.verificationCodeSent()];
  await saveFlow(db.kysely, clock, flow);
}

/** `GET /self-service/verification/{browser,api}` (docs/kratos-compatibility.md#verification). */
export async function createVerificationFlow(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
) {
  const asRedirect = type === 'browser' && wantsRedirect(request);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    const returnTo = returnToOf(services, queryOf(request));
    const csrfToken =
      type === 'browser' ? ensureCsrfCookie(services, request, reply) : crypto.randomBytes(32).toString('base64');
    const flow = await startVerificationFlow(services, {
      type,
      requestUrl: requestUrlOf(services, request),
      csrfToken,
      returnTo,
    });
    if (asRedirect) return redirect(reply, flowUiUrl(services, flow));
    return sendFlow(services, reply, 200, flow);
  });
}

/**
 * `POST /self-service/verification?flow=`, and `GET` with `code` from a mail link
 * (docs/kratos-compatibility.md#verification).
 */
export async function submitVerificationFlow(services: IdpServices, request: FastifyRequest, reply: FastifyReply) {
  const { ctx } = services;
  const query = queryOf(request);
  const flow = await findFlow(ctx.db.kysely, 'verification', query.flow);
  const asRedirect = wantsRedirect(request, flow, true);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    if (!flow) throw kratosErrors.flowNotFound();
    const now = ctx.clock.now();
    const restart = (message: UiText) =>
      startVerificationFlow(services, {
        type: flow.type,
        requestUrl: flow.requestUrl,
        csrfToken: flow.csrfToken,
        returnTo: flow.returnTo,
        message,
      });
    if (request.method === 'GET') {
      // Link from a mail: pre-fill the code and let the person submit it, as Kratos does. The link may open in
      // another browser than the one that asked for it, so the flow is bound to this browser's CSRF cookie, as
      // Kratos' handleLinkClick does (docs/kratos-compatibility.md#verification).
      if (query.code) setNodeValue(flow.ui, 'code', query.code.slice(0, 64));
      if (flow.type === 'browser') flow.csrfToken = ensureCsrfCookie(services, request, reply);
      await saveFlow(ctx.db.kysely, ctx.clock, flow);
      return redirect(reply, flowUiUrl(services, flow));
    }
    const { body } = readSubmitBody(request);
    if (isExpired(flow, now)) {
      const replacement = await restart(messages.verificationFlowExpired(new Date(flow.expiresAt), now));
      if (asRedirect) return redirect(reply, flowUiUrl(services, replacement));
      throw kratosErrors.flowExpired(replacement.id, new Date(flow.expiresAt), now);
    }
    if (flow.state === 'passed_challenge') {
      const replacement = await restart(messages.verificationAlreadyCompleted());
      if (asRedirect) return redirect(reply, flowUiUrl(services, replacement));
      throw kratosErrors.flowReplaced(replacement.id);
    }
    clearMessages(flow.ui);
    if (body.method !== 'code') {
      addFlowMessage(flow.ui, messages.noVerificationStrategy());
      return answerWithFlow(services, request, reply, flow);
    }
    if (body.code !== undefined) {
      if ((await countSubmission(ctx.db.kysely, flow.id)) > MAX_CODE_SUBMISSIONS) {
        const replacement = await restart(messages.submittedTooOften());
        if (asRedirect) return redirect(reply, flowUiUrl(services, replacement));
        return sendFlow(services, reply, 200, replacement);
      }
      const code = typeof body.code === 'string' && body.code.length <= 64 ? body.code : '';
      const spent = code ? await consumeCode(ctx.db.kysely, ctx.clock, flow.id, 'verification_code', code) : undefined;
      if (!spent?.identityId) {
        addFlowMessage(flow.ui, messages.invalidVerificationCode());
        return answerWithFlow(services, request, reply, flow, 200);
      }
      await markAddressVerified(ctx.db.kysely, ctx.clock, spent.identityId, spent.address);
      const returnUrl = returnUrlOf(services, flow.returnTo);
      flow.state = 'passed_challenge';
      flow.ui = {
        action: returnUrl,
        method: 'GET',
        nodes: [anchorNode('code', 'continue', returnUrl, messages.continue())],
        messages: [messages.verificationSuccessful()],
      };
      return answerWithFlow(services, request, reply, flow, 200);
    }
    // CSRF protects sending mails; code submission is not CSRF-checked, as in Kratos
    // (docs/kratos-compatibility.md#csrf).
    ensureCsrf(services, request, flow, body);
    const checked = body.email === undefined || body.email === '' ? undefined : validateTraits({ email: body.email });
    if (!checked?.traits) {
      addNodeMessage(flow.ui, 'email', checked ? checked.errors[0]!.message : messages.missingProperty('email'));
      return answerWithFlow(services, request, reply, flow);
    }
    await sendVerificationCode(services, flow, normaliseEmail(checked.traits.email), clientAddress(request));
    return answerWithFlow(services, request, reply, flow, 200);
  });
}
