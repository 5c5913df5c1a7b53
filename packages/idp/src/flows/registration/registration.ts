import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../../services.js';
import { HttpError } from '../../errors/herodot.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { clientAddress } from '../../http/client-info.js';
import { findIdentity, insertIdentity, saveCredential } from '../../identities/identity-repository.js';
import { identityJson } from '../../identities/identity-json.js';
import { normaliseEmail, validateTraits, type Traits } from '../../identities/identity-schema.js';
import { authenticate } from '../../sessions/authenticate.js';
import { messages } from '../../ui/messages.js';
import { addFlowMessage, addNodeMessage, clearMessages } from '../../ui/nodes.js';
import { findFlow, insertFlow, isExpired, newFlow, saveFlow, type Flow, type FlowType } from '../flow.js';
import {
  ensureCsrf,
  ensureCsrfCookie,
  flowUiUrl,
  readSubmitBody,
  redirect,
  sendFlow,
  sendJson,
  wantsRedirect,
  withBrowserErrors,
} from '../flow-http.js';
import { answerWithFlow } from '../flow-submit.js';
import { queryOf, requestUrlOf, returnToOf, returnUrlOf } from '../flow-request.js';
import { sendVerificationCode, startVerificationFlow } from '../verification/verification.js';
import { credentialStepNodes, profileStepNodes } from './nodes.js';

async function startRegistrationFlow(
  services: IdpServices,
  init: {
    type: FlowType;
    requestUrl: string;
    csrfToken: string;
    returnTo: string | null;
    message?: ReturnType<typeof messages.generic>;
  },
): Promise<Flow> {
  const flow = newFlow(services.ctx, services.ctx.config.lifespans.flowMs, {
    kind: 'registration',
    type: init.type,
    requestUrl: init.requestUrl,
    csrfToken: init.csrfToken,
    returnTo: init.returnTo,
  });
  flow.ui.nodes = profileStepNodes();
  if (init.message) addFlowMessage(flow.ui, init.message);
  await insertFlow(services.ctx.db.kysely, flow);
  return flow;
}

/**
 * `GET /self-service/registration/{browser,api}` (docs/kratos-compatibility.md#registration); off unless
 * REGISTRATION_ENABLED.
 */
export async function createRegistrationFlow(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
) {
  const asRedirect = type === 'browser' && wantsRedirect(request);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    if (!services.ctx.config.registrationEnabled) throw kratosErrors.flowDisabled();
    const returnTo = returnToOf(services, queryOf(request));
    if (await authenticate(services, request)) {
      if (asRedirect) return redirect(reply, returnUrlOf(services, returnTo));
      throw kratosErrors.sessionAlreadyAvailable('registration');
    }
    const csrfToken =
      type === 'browser' ? ensureCsrfCookie(services, request, reply) : crypto.randomBytes(32).toString('base64');
    const flow = await startRegistrationFlow(services, {
      type,
      requestUrl: requestUrlOf(services, request),
      csrfToken,
      returnTo,
    });
    if (asRedirect) return redirect(reply, flowUiUrl(services, flow));
    return sendFlow(services, reply, 200, flow);
  });
}

/** `POST /self-service/registration?flow=`: the profile step, the password step, or both at once. */
export async function submitRegistrationFlow(services: IdpServices, request: FastifyRequest, reply: FastifyReply) {
  const { ctx } = services;
  const flow = await findFlow(ctx.db.kysely, 'registration', (request.query as Record<string, unknown>).flow);
  const asRedirect = wantsRedirect(request, flow, true);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    if (!ctx.config.registrationEnabled) throw kratosErrors.flowDisabled();
    if (!flow) throw kratosErrors.flowNotFound();
    const { body } = readSubmitBody(request);
    if (await authenticate(services, request)) {
      if (asRedirect) return redirect(reply, returnUrlOf(services, null), 302);
      throw kratosErrors.sessionAlreadyAvailable('registration');
    }
    const now = ctx.clock.now();
    if (isExpired(flow, now)) {
      const replacement = await startRegistrationFlow(services, {
        type: flow.type,
        requestUrl: flow.requestUrl,
        csrfToken: flow.csrfToken,
        returnTo: flow.returnTo,
        message: messages.registrationFlowExpired(new Date(flow.expiresAt), now),
      });
      if (asRedirect) return redirect(reply, flowUiUrl(services, replacement));
      throw kratosErrors.flowExpired(replacement.id, new Date(flow.expiresAt), now);
    }
    ensureCsrf(services, request, flow, body);
    clearMessages(flow.ui);
    if (flow.state === 'passed_challenge') {
      addFlowMessage(flow.ui, messages.registrationAlreadyCompleted());
      return answerWithFlow(services, request, reply, flow);
    }
    if (body.screen === 'previous') {
      flow.ui.nodes = profileStepNodes(flow.internal.traits as Traits | undefined);
      return answerWithFlow(services, request, reply, flow);
    }
    const traitsInput = body.traits ?? flow.internal.traits;
    const checked = validateTraits(traitsInput);
    if (!checked.traits) {
      flow.ui.nodes = profileStepNodes();
      for (const error of checked.errors) {
        if (error.node) addNodeMessage(flow.ui, error.node, error.message);
        else addFlowMessage(flow.ui, error.message);
      }
      return answerWithFlow(services, request, reply, flow);
    }
    const traits = checked.traits;
    if (body.method === 'profile') {
      // Kratos answers the successful first step with 400 and the second step's nodes
      // (docs/kratos-compatibility.md#validation-errors-travel-inside-the-flow).
      flow.internal.traits = traits;
      flow.ui.nodes = credentialStepNodes(traits);
      addFlowMessage(flow.ui, messages.chooseCredential());
      return answerWithFlow(services, request, reply, flow);
    }
    if (body.method !== 'password') {
      addFlowMessage(flow.ui, messages.noRegistrationStrategy());
      return answerWithFlow(services, request, reply, flow);
    }
    flow.ui.nodes = credentialStepNodes(traits);
    const password = body.password;
    if (typeof password !== 'string' || password === '') {
      addNodeMessage(flow.ui, 'password', messages.missingProperty('password'));
      return answerWithFlow(services, request, reply, flow);
    }
    const violation = await services.passwordPolicy.validate(password, [traits.email]);
    if (violation) {
      addNodeMessage(flow.ui, 'password', violation);
      return answerWithFlow(services, request, reply, flow);
    }
    const hashed = await services.passwords.hash(password);
    let identityId: string;
    try {
      identityId = await ctx.db.kysely.transaction().execute(async (trx) => {
        const id = await insertIdentity(trx, ctx.clock, { traits });
        await saveCredential(trx, ctx.clock, id, 'password', { hashed_password: hashed }, [
          normaliseEmail(traits.email),
        ]);
        return id;
      });
    } catch (error) {
      if (error instanceof HttpError && error.code === 409) {
        addFlowMessage(flow.ui, messages.duplicateIdentifier());
        return answerWithFlow(services, request, reply, flow);
      }
      throw error;
    }
    flow.state = 'passed_challenge';
    await saveFlow(ctx.db.kysely, ctx.clock, flow);
    const verification = await startVerificationFlow(services, {
      type: flow.type,
      requestUrl: flow.requestUrl,
      csrfToken: flow.csrfToken,
      returnTo: flow.returnTo,
    });
    await sendVerificationCode(services, verification, normaliseEmail(traits.email), clientAddress(request));
    ctx.log.info({ event: 'registration.success', identity: identityId }, 'account registered');
    const identity = (await findIdentity(ctx.db.kysely, identityId))!;
    if (asRedirect) return redirect(reply, returnUrlOf(services, flow.returnTo));
    const json = identityJson(identity, { publicUrl: ctx.config.publicUrl });
    if (flow.type === 'api') return sendJson(reply, 200, { identity: json, continue_with: null });
    return sendJson(reply, 200, {
      identity: json,
      continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: returnUrlOf(services, flow.returnTo) }],
    });
  });
}
