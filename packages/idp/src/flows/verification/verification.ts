import { verificationCodeMail } from '@portaal/nl';
import type { IdpServices } from '../../services.js';
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
  csrfNode,
  inputNode,
  setNodeValue,
  type UiNode,
} from '../../ui/nodes.js';
import { countSubmission, newFlow, saveFlow, type Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { ensureCsrf, ensureCsrfCookie, flowUiUrl } from '../flow-http.js';
import { returnToOf, returnUrlOf } from '../flow-request.js';
import { flowAgain, type Outcome } from '../outcome.js';
import { openFlow, requireFlow } from '../steps.js';
import { type FlowStart, startFields, startOfRequest, startReplacing, storeStartedFlow } from '../flow-start.js';

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
export async function startVerificationFlow(services: IdpServices, init: FlowStart): Promise<Flow> {
  const flow = newFlow(services.ctx, services.ctx.config.lifespans.flowMs, {
    kind: 'verification',
    ...startFields(init),
    // Kratos' NewFlow sets the one enabled method at once; Ory Elements needs it to pick the form.
    active: 'code',
  });
  flow.ui.nodes = emailNodes();
  return storeStartedFlow(services.ctx.db.kysely, flow, init);
}

/** Sends a verification code for a known address (unknown ones get nothing) and moves the flow to `sent_email`. */
export async function sendVerificationCode(
  services: IdpServices,
  flow: Flow,
  to: { email: string; client: string },
): Promise<void> {
  const { db, clock, config } = services.ctx;
  const { email, client } = to;
  const lockMs = config.throttling.lockMs;
  // The throttle locks on the limit-th request itself; one more lets exactly 5 mails per address (30 per client) out.
  const limited =
    (await services.throttle.recordFailure(identifierKey('verification_mail', email), 6, lockMs, lockMs)).locked ||
    (await services.throttle.recordFailure(clientAddressKey('verification_mail', client), 31, lockMs, lockMs)).locked;
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
export async function createVerificationFlow(ctx: FlowContext): Promise<Outcome> {
  const { services } = ctx;
  const returnTo = returnToOf(services, ctx.query);
  const flow = await startVerificationFlow(services, startOfRequest(ctx, returnTo));
  return { kind: 'flow', flow, status: 200 };
}

const restartVerification = (ctx: FlowContext, old: Flow, message: UiText) =>
  startVerificationFlow(ctx.services, startReplacing(old, message));

/**
 * Link from a mail: pre-fill the code and let the person submit it, as Kratos does. The link may open in another
 * browser than the one that asked for it, so the flow is bound to this browser's CSRF cookie, as Kratos'
 * handleLinkClick does (docs/kratos-compatibility.md#verification).
 */
async function followVerificationLink(ctx: FlowContext, flow: Flow): Promise<Outcome> {
  if (ctx.query.code) setNodeValue(flow.ui, 'code', ctx.query.code.slice(0, 64));
  if (flow.type === 'browser') flow.csrfToken = ensureCsrfCookie(ctx);
  await saveFlow(ctx.idp.db.kysely, ctx.idp.clock, flow);
  return { kind: 'redirect', to: flowUiUrl(ctx.services, flow) };
}

/**
 * `POST /self-service/verification?flow=`, and `GET` with `code` from a mail link
 * (docs/kratos-compatibility.md#verification).
 */
export async function submitVerificationFlow(ctx: FlowContext): Promise<Outcome> {
  const found = requireFlow(ctx);
  if (ctx.request.method === 'GET') return followVerificationLink(ctx, found);
  // CSRF protects sending mails only; code submissions are not CSRF-checked, as in Kratos
  // (docs/kratos-compatibility.md#csrf).
  const opened = await openFlow(ctx, {
    restart: (old, message) => restartVerification(ctx, old, message),
    expiredMessage: messages.verificationFlowExpired,
    csrf: false,
  });
  if (opened.kind !== 'opened') return opened;
  const { flow, body } = opened;
  if (flow.state === 'passed_challenge') {
    const replacement = await restartVerification(ctx, flow, messages.verificationAlreadyCompleted());
    return { kind: 'replaced', replacement, tell: { as: 'replaced' } };
  }
  if (body.method !== 'code') {
    addFlowMessage(flow.ui, messages.noVerificationStrategy());
    return flowAgain(flow);
  }
  if (body.code !== undefined) return submitCode(ctx, flow, body.code);
  ensureCsrf(ctx, flow, body);
  const checked = body.email === undefined || body.email === '' ? undefined : validateTraits({ email: body.email });
  if (!checked?.traits) {
    addNodeMessage(flow.ui, 'email', checked ? checked.errors[0]!.message : messages.missingProperty('email'));
    return flowAgain(flow);
  }
  const email = normaliseEmail(checked.traits.email);
  await sendVerificationCode(ctx.services, flow, { email, client: clientAddress(ctx.request) });
  return flowAgain(flow, 200);
}

/** A verification code: at most five tries per flow, then a new flow; a right one verifies the address. */
async function submitCode(ctx: FlowContext, flow: Flow, rawCode: unknown): Promise<Outcome> {
  const { db, clock } = ctx.idp;
  if ((await countSubmission(db.kysely, flow.id)) > MAX_CODE_SUBMISSIONS) {
    const replacement = await restartVerification(ctx, flow, messages.submittedTooOften());
    return { kind: 'flow', flow: replacement, status: 200 };
  }
  const code = typeof rawCode === 'string' && rawCode.length <= 64 ? rawCode : '';
  // The code is spent and the address verified together (docs/architecture.md#writes-that-belong-together).
  const spent = code
    ? await db.kysely.transaction().execute(async (trx) => {
        const claimed = await consumeCode(trx, clock, flow.id, 'verification_code', code);
        if (claimed?.identityId) await markAddressVerified(trx, clock, claimed.identityId, claimed.address);
        return claimed;
      })
    : undefined;
  if (!spent?.identityId) {
    addFlowMessage(flow.ui, messages.invalidVerificationCode());
    return flowAgain(flow, 200);
  }
  const returnUrl = returnUrlOf(ctx.services, flow.returnTo);
  flow.state = 'passed_challenge';
  flow.ui = {
    action: returnUrl,
    method: 'GET',
    nodes: [anchorNode('code', 'continue', returnUrl, messages.continue())],
    messages: [messages.verificationSuccessful()],
  };
  return flowAgain(flow, 200);
}
