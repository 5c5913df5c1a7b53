import type { FastifyReply, FastifyRequest } from 'fastify';
import { recoveryCodeMail, recoveryLinkMail } from '@portaal/nl';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { publicUrlOf } from '../../http/return-to.js';
import { clientAddress } from '../../http/client-info.js';
import { findIdentity, findIdentityIdByAddress } from '../../identities/identity-repository.js';
import { normaliseEmail, validateTraits } from '../../identities/identity-schema.js';
import { authenticate } from '../../sessions/authenticate.js';
import { clientAddressKey, identifierKey } from '../../throttle/index.js';
import { issueCode, consumeCode } from '../../codes/one-time-codes.js';
import { messages } from '../../ui/messages.js';
import { addFlowMessage, addNodeMessage, clearMessages } from '../../ui/nodes.js';
import { countSubmission, findFlow, isExpired, type Flow } from '../flow.js';
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
import { returnUrlOf } from '../flow-request.js';
import { recoveryCodeNodes, recoveryEmailNodes } from './nodes.js';
import { startRecoveryFlow } from './create.js';
import { finishRecovery } from './finish.js';

const MAX_CODE_SUBMISSIONS = 5;
/** Mails per address and per client within the lock window, against e-mail bombing. */
const MAX_MAILS_PER_ADDRESS = 5;
const MAX_MAILS_PER_CLIENT = 30;

/** `POST /self-service/recovery?flow=` with the `code` or `link` method (docs/kratos-compatibility.md#recovery). */
export async function submitRecoveryFlow(services: IdpServices, request: FastifyRequest, reply: FastifyReply) {
  const { ctx } = services;
  const flow = await findFlow(ctx.db.kysely, 'recovery', (request.query as Record<string, unknown>).flow);
  const asRedirect = wantsRedirect(request, flow, true);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    if (!flow) throw kratosErrors.flowNotFound();
    const { body } = readSubmitBody(request);
    const now = ctx.clock.now();
    // A new flow replaces this one: HTML to the UI, JSON to the new flow itself, as Kratos without
    // `use_continue_with_transitions` does (docs/kratos-compatibility.md#recovery).
    const replaceWith = async (message: ReturnType<typeof messages.generic>) => {
      const replacement = await restart(services, flow, message);
      if (asRedirect) return redirect(reply, flowUiUrl(services, replacement));
      return redirect(reply, publicUrlOf(ctx.config, '/self-service/recovery/flows', { id: replacement.id }));
    };
    if (isExpired(flow, now)) return replaceWith(messages.recoveryFlowExpired(new Date(flow.expiresAt), now));
    ensureCsrf(services, request, flow, body);
    // Kratos takes a code before it looks for a session: a signed-in browser may finish a recovery (one an
    // administrator started, say), which replaces its session (docs/kratos-compatibility.md#recovery).
    const codeSubmission =
      body.method === 'code' && body.code !== undefined && (body.email === undefined || body.email === '');
    if (!codeSubmission && (await authenticate(services, request))) {
      if (asRedirect) return redirect(reply, returnUrlOf(services, null), 302);
      throw kratosErrors.sessionAlreadyAvailable('recovery');
    }
    clearMessages(flow.ui);
    if (flow.state === 'passed_challenge' && !codeSubmission) return replaceWith(messages.recoveryAlreadyCompleted());
    const method = body.method;
    if (method !== 'code' && method !== 'link') {
      addFlowMessage(flow.ui, messages.noRecoveryStrategy());
      return answerWithFlow(services, request, reply, flow);
    }
    if (body.code !== undefined && method === 'code') return submitCode(services, request, reply, flow, body.code);
    return sendRecoveryMail(services, request, reply, flow, body.email, method);
  });
}

function restart(services: IdpServices, flow: Flow, message: ReturnType<typeof messages.generic>) {
  return startRecoveryFlow(services, {
    type: flow.type,
    requestUrl: flow.requestUrl,
    csrfToken: flow.csrfToken,
    returnTo: flow.returnTo,
    message,
  });
}

async function sendRecoveryMail(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  rawEmail: unknown,
  method: 'code' | 'link',
) {
  const { ctx, throttle } = services;
  const { config, clock, db } = ctx;
  if (rawEmail === undefined || rawEmail === '') {
    addNodeMessage(flow.ui, 'email', messages.missingProperty('email'));
    return answerWithFlow(services, request, reply, flow);
  }
  const checked = validateTraits({ email: rawEmail });
  if (!checked.traits) {
    addNodeMessage(flow.ui, 'email', checked.errors[0]!.message);
    return answerWithFlow(services, request, reply, flow);
  }
  const email = normaliseEmail(checked.traits.email);
  // Known and unknown addresses answer the same; only a known, active one gets a mail, within its rate limit.
  const identityId = await findIdentityIdByAddress(db.kysely, email);
  const identity = identityId ? await findIdentity(db.kysely, identityId) : undefined;
  const lockMs = config.throttling.lockMs;
  const addressLimited = (
    await throttle.recordFailure(identifierKey('recovery_mail', email), MAX_MAILS_PER_ADDRESS, lockMs, lockMs)
  ).locked;
  const clientLimited = (
    await throttle.recordFailure(
      clientAddressKey('recovery_mail', clientAddress(request)),
      MAX_MAILS_PER_CLIENT,
      lockMs,
      lockMs,
    )
  ).locked;
  const minutes = Math.round(config.lifespans.codeMs / 60_000);
  await db.kysely.transaction().execute(async (trx) => {
    if (identity?.state !== 'active' || addressLimited || clientLimited) return;
    if (method === 'code') {
      const code = await issueCode(trx, clock, {
        flowId: flow.id,
        purpose: 'recovery_code',
        identityId: identity.id,
        address: email,
        lifespanMs: config.lifespans.codeMs,
      });
      await services.mail.enqueue(trx, {
        to: email,
        ...recoveryCodeMail({ code: code.value, validMinutes: minutes }),
        templateType: 'recovery_code',
      });
    } else {
      const token = await issueCode(trx, clock, {
        flowId: flow.id,
        purpose: 'recovery_link',
        identityId: identity.id,
        address: email,
        lifespanMs: config.lifespans.codeMs,
      });
      const url = publicUrlOf(config, '/self-service/recovery', { flow: flow.id, token: token.value });
      await services.mail.enqueue(trx, {
        to: email,
        ...recoveryLinkMail({ url, validMinutes: minutes }),
        templateType: 'recovery_link',
      });
    }
  });
  flow.state = 'sent_email';
  flow.active = method;
  flow.internal.email = email;
  flow.ui.nodes = method === 'code' ? recoveryCodeNodes(email) : recoveryEmailNodes();
  addFlowMessage(flow.ui, method === 'code' ? messages.recoveryCodeSent() : messages.recoveryLinkSent());
  return answerWithFlow(services, request, reply, flow, 200);
}

async function submitCode(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  rawCode: unknown,
) {
  const { ctx } = services;
  const asRedirect = wantsRedirect(request, flow, true);
  if ((await countSubmission(ctx.db.kysely, flow.id)) > MAX_CODE_SUBMISSIONS) {
    const replacement = await restart(services, flow, messages.submittedTooOften());
    if (asRedirect) return redirect(reply, flowUiUrl(services, replacement));
    return sendFlow(services, reply, 200, replacement);
  }
  const code = typeof rawCode === 'string' && rawCode.length <= 64 ? rawCode : '';
  const spent = code ? await consumeCode(ctx.db.kysely, ctx.clock, flow.id, 'recovery_code', code) : undefined;
  if (spent?.identityId) {
    if (await finishRecovery(services, request, reply, flow, spent.identityId, spent.address, 'code_recovery'))
      return reply;
  }
  ctx.log.info({ event: 'recovery.code_failure', flow: flow.id }, 'recovery code refused');
  addFlowMessage(flow.ui, messages.invalidRecoveryCode());
  return answerWithFlow(services, request, reply, flow, 200);
}

/** `GET /self-service/recovery?flow=&token=`: the link from the mail (docs/kratos-compatibility.md#recovery). */
export async function followRecoveryLink(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
) {
  const { ctx } = services;
  const flow = await findFlow(ctx.db.kysely, 'recovery', (request.query as Record<string, unknown>).flow);
  return withBrowserErrors(services, request, reply, true, async () => {
    const now = ctx.clock.now();
    const spent =
      flow && token.length <= 64
        ? await consumeCode(ctx.db.kysely, ctx.clock, flow.id, 'recovery_link', token)
        : undefined;
    if (flow && spent?.identityId && !(flow.state === 'passed_challenge')) {
      if (await finishRecovery(services, request, reply, flow, spent.identityId, spent.address, 'link_recovery', true))
        return reply;
    }
    ctx.log.info({ event: 'recovery.link_failure', flow: flow?.id ?? null }, 'recovery link refused');
    const replacement = await startRecoveryFlow(services, {
      type: 'browser',
      requestUrl: flow?.requestUrl ?? publicUrlOf(ctx.config, '/self-service/recovery/browser'),
      csrfToken: ensureCsrfCookie(services, request, reply),
      returnTo: flow?.returnTo ?? null,
      message:
        flow && isExpired(flow, now)
          ? messages.recoveryFlowExpired(new Date(flow.expiresAt), now)
          : messages.invalidRecoveryToken(),
    });
    return redirect(reply, flowUiUrl(services, replacement));
  });
}
