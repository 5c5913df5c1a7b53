import { recoveryCodeMail, recoveryLinkMail } from '@portaal/nl';
import { publicUrlOf } from '../../http/return-to.js';
import { clientAddress } from '../../http/client-info.js';
import { findIdentity, findIdentityIdByAddress } from '../../identities/identity-repository.js';
import { normaliseEmail, validateTraits } from '../../identities/identity-schema.js';
import { clientAddressKey, identifierKey } from '../../throttle/index.js';
import { issueCode, consumeCode } from '../../codes/one-time-codes.js';
import { messages, type UiText } from '../../ui/messages.js';
import { addFlowMessage, addNodeMessage } from '../../ui/nodes.js';
import { countSubmission, isExpired, type Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { ensureCsrfCookie, flowUiUrl } from '../flow-http.js';
import { returnUrlOf } from '../flow-request.js';
import { flowAgain, type Outcome } from '../outcome.js';
import { alreadySignedIn, openFlow } from '../steps.js';
import { recoveryCodeNodes, recoveryEmailNodes } from './nodes.js';
import { startRecoveryFlow } from './create.js';
import { finishRecovery } from './finish.js';
import { startReplacing } from '../flow-start.js';

const MAX_CODE_SUBMISSIONS = 5;
/** Mails per address and per client within the lock window, against e-mail bombing. */
const MAX_MAILS_PER_ADDRESS = 5;
const MAX_MAILS_PER_CLIENT = 30;

const restartRecovery = (ctx: FlowContext, old: Flow, message: UiText) =>
  startRecoveryFlow(ctx.services, startReplacing(old, message));

/** `POST /self-service/recovery?flow=` with the `code` or `link` method (docs/kratos-compatibility.md#recovery). */
export async function submitRecoveryFlow(ctx: FlowContext): Promise<Outcome> {
  // A new flow replaces this one: HTML to the UI, JSON to the new flow itself, as Kratos without
  // `use_continue_with_transitions` does (docs/kratos-compatibility.md#recovery).
  const opened = await openFlow(ctx, {
    restart: (old, message) => restartRecovery(ctx, old, message),
    expiredMessage: messages.recoveryFlowExpired,
    expiredAs: 'see_other',
  });
  if (opened.kind !== 'opened') return opened;
  const { flow, body } = opened;
  // Kratos takes a code before it looks for a session: a signed-in browser may finish a recovery (one an
  // administrator started, say), which replaces its session (docs/kratos-compatibility.md#recovery).
  const codeSubmission =
    body.method === 'code' && body.code !== undefined && (body.email === undefined || body.email === '');
  if (!codeSubmission && (await ctx.auth())) return alreadySignedIn('recovery', returnUrlOf(ctx.services, null), 302);
  if (flow.state === 'passed_challenge' && !codeSubmission) {
    const replacement = await restartRecovery(ctx, flow, messages.recoveryAlreadyCompleted());
    return { kind: 'replaced', replacement, tell: { as: 'see_other' } };
  }
  const method = body.method;
  if (method !== 'code' && method !== 'link') {
    addFlowMessage(flow.ui, messages.noRecoveryStrategy());
    return flowAgain(flow);
  }
  if (body.code !== undefined && method === 'code') return submitCode(ctx, flow, body.code);
  return sendRecoveryMail(ctx, flow, { rawEmail: body.email, method });
}

async function sendRecoveryMail(
  ctx: FlowContext,
  flow: Flow,
  input: { rawEmail: unknown; method: 'code' | 'link' },
): Promise<Outcome> {
  const { rawEmail, method } = input;
  if (rawEmail === undefined || rawEmail === '') {
    addNodeMessage(flow.ui, 'email', messages.missingProperty('email'));
    return flowAgain(flow);
  }
  const checked = validateTraits({ email: rawEmail });
  if (!checked.traits) {
    addNodeMessage(flow.ui, 'email', checked.errors[0]!.message);
    return flowAgain(flow);
  }
  const email = normaliseEmail(checked.traits.email);
  await mailRecovery(ctx, flow, { email, method });
  flow.state = 'sent_email';
  flow.active = method;
  flow.internal.email = email;
  flow.ui.nodes = method === 'code' ? recoveryCodeNodes(email) : recoveryEmailNodes();
  addFlowMessage(flow.ui, method === 'code' ? messages.recoveryCodeSent() : messages.recoveryLinkSent());
  return flowAgain(flow, 200);
}

/** Known and unknown addresses answer the same; only a known, active one gets a mail, within its rate limit. */
async function mailRecovery(ctx: FlowContext, flow: Flow, input: { email: string; method: 'code' | 'link' }) {
  const { throttle } = ctx.services;
  const { config, clock, db } = ctx.idp;
  const { email, method } = input;
  const request = ctx.request;
  const services = ctx.services;
  const identityId = await findIdentityIdByAddress(db.kysely, email);
  const identity = identityId ? await findIdentity(db.kysely, identityId) : undefined;
  const lockMs = config.throttling.lockMs;
  // The throttle locks on the limit-th request itself; one more lets exactly the maximum of mails go out.
  const addressLimited = (
    await throttle.recordFailure(identifierKey('recovery_mail', email), MAX_MAILS_PER_ADDRESS + 1, lockMs, lockMs)
  ).locked;
  const clientLimited = (
    await throttle.recordFailure(
      clientAddressKey('recovery_mail', clientAddress(request)),
      MAX_MAILS_PER_CLIENT + 1,
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
}

/** A recovery code: at most five tries per flow, then a new flow (docs/kratos-compatibility.md#recovery). */
async function submitCode(ctx: FlowContext, flow: Flow, rawCode: unknown): Promise<Outcome> {
  const { db, clock, log } = ctx.idp;
  if ((await countSubmission(db.kysely, flow.id)) > MAX_CODE_SUBMISSIONS) {
    const replacement = await restartRecovery(ctx, flow, messages.submittedTooOften());
    return { kind: 'flow', flow: replacement, status: 200 };
  }
  const code = typeof rawCode === 'string' && rawCode.length <= 64 ? rawCode : '';
  const spent = code ? await consumeCode(db.kysely, clock, flow.id, 'recovery_code', code) : undefined;
  if (spent?.identityId) {
    const finished = await finishRecovery(ctx, flow, {
      identityId: spent.identityId,
      address: spent.address,
      method: 'code_recovery',
    });
    if (finished) return finished;
  }
  log.info({ event: 'recovery.code_failure', flow: flow.id }, 'recovery code refused');
  addFlowMessage(flow.ui, messages.invalidRecoveryCode());
  return flowAgain(flow, 200);
}

/**
 * `GET /self-service/recovery?flow=&token=`: the link from the mail (docs/kratos-compatibility.md#recovery), always
 * answered to the browser; a refused link leads to a new flow.
 */
export async function followRecoveryLink(ctx: FlowContext): Promise<Outcome> {
  const { db, clock, config, log } = ctx.idp;
  const flow = ctx.flow;
  const token = ctx.query.token ?? '';
  const now = clock.now();
  const spent =
    flow && token.length <= 64 ? await consumeCode(db.kysely, clock, flow.id, 'recovery_link', token) : undefined;
  if (flow && spent?.identityId && !(flow.state === 'passed_challenge')) {
    const finished = await finishRecovery(ctx, flow, {
      identityId: spent.identityId,
      address: spent.address,
      method: 'link_recovery',
    });
    if (finished) return finished;
  }
  log.info({ event: 'recovery.link_failure', flow: flow?.id ?? null }, 'recovery link refused');
  const replacement = await startRecoveryFlow(ctx.services, {
    type: 'browser',
    requestUrl: flow?.requestUrl ?? publicUrlOf(config, '/self-service/recovery/browser'),
    csrfToken: ensureCsrfCookie(ctx),
    returnTo: flow?.returnTo ?? null,
    message:
      flow && isExpired(flow, now)
        ? messages.recoveryFlowExpired(new Date(flow.expiresAt), now)
        : messages.invalidRecoveryToken(),
  });
  return { kind: 'redirect', to: flowUiUrl(ctx.services, replacement) };
}
