import { IdentityConflictError } from '../../identities/identity-errors.js';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { clientAddress } from '../../http/client-info.js';
import { findIdentity, insertIdentity, saveCredential } from '../../identities/identity-repository.js';
import { identityJson } from '../../identities/identity-json.js';
import { normaliseEmail, validateTraits, type Traits } from '../../identities/identity-schema.js';
import { messages, type UiText } from '../../ui/messages.js';
import { addFlowMessage, addNodeMessage } from '../../ui/nodes.js';
import { newFlow, saveFlow, type Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { returnToOf, returnUrlOf } from '../flow-request.js';
import { flowAgain, type Outcome } from '../outcome.js';
import { alreadySignedIn, openFlow, type OpenedFlow } from '../steps.js';
import { sendVerificationCode, startVerificationFlow } from '../verification/verification.js';
import { credentialStepNodes, profileStepNodes } from './nodes.js';
import { isPasskeyRegistration, passkeyRegistrationNodes, registerWithPasskey } from './passkey-registration.js';
import { type FlowStart, startFields, startOfRequest, startReplacing, storeStartedFlow } from '../flow-start.js';

async function startRegistrationFlow(services: IdpServices, init: FlowStart): Promise<Flow> {
  const flow = newFlow(services.ctx, services.ctx.config.lifespans.flowMs, {
    kind: 'registration',
    ...startFields(init),
  });
  flow.ui.nodes = profileStepNodes();
  return storeStartedFlow(services.ctx.db.kysely, flow, init);
}

/**
 * `GET /self-service/registration/{browser,api}` (docs/kratos-compatibility.md#registration); off unless
 * REGISTRATION_ENABLED.
 */
export async function createRegistrationFlow(ctx: FlowContext): Promise<Outcome> {
  const { services } = ctx;
  if (!ctx.idp.config.registrationEnabled) throw kratosErrors.flowDisabled();
  const returnTo = returnToOf(services, ctx.query);
  if (await ctx.auth()) return alreadySignedIn('registration', returnUrlOf(services, returnTo));
  const flow = await startRegistrationFlow(services, startOfRequest(ctx, returnTo));
  return { kind: 'flow', flow, status: 200 };
}

const restartRegistration = (ctx: FlowContext, old: Flow, message: UiText) =>
  startRegistrationFlow(ctx.services, startReplacing(old, message));

/** `POST /self-service/registration?flow=`: the profile step, the password step, or both at once. */
export async function submitRegistrationFlow(ctx: FlowContext): Promise<Outcome> {
  if (!ctx.idp.config.registrationEnabled) throw kratosErrors.flowDisabled();
  const opened = await openFlow(ctx, {
    restart: (old, message) => restartRegistration(ctx, old, message),
    expiredMessage: messages.registrationFlowExpired,
    guard: async () =>
      (await ctx.auth()) ? alreadySignedIn('registration', returnUrlOf(ctx.services, null), 302) : undefined,
  });
  if (opened.kind !== 'opened') return opened;
  const { flow, body } = opened;
  if (flow.state === 'passed_challenge') {
    addFlowMessage(flow.ui, messages.registrationAlreadyCompleted());
    return flowAgain(flow);
  }
  if (body.screen === 'previous') {
    flow.ui.nodes = profileStepNodes(flow.internal.traits as Traits | undefined);
    return flowAgain(flow);
  }
  const checked = validateTraits(body.traits ?? flow.internal.traits);
  if (!checked.traits) {
    flow.ui.nodes = profileStepNodes();
    for (const error of checked.errors) {
      if (error.node) addNodeMessage(flow.ui, error.node, error.message);
      else addFlowMessage(flow.ui, error.message);
    }
    return flowAgain(flow);
  }
  const traits = checked.traits;
  if (body.method === 'profile') {
    // Kratos answers the successful first step with 400 and the second step's nodes
    // (docs/kratos-compatibility.md#validation-errors-travel-inside-the-flow).
    flow.internal.traits = traits;
    await showCredentialStep(ctx, flow, traits);
    addFlowMessage(flow.ui, messages.chooseCredential());
    return flowAgain(flow);
  }
  if (isPasskeyRegistration(body)) return submitPasskey(ctx, flow, { traits, answer: body.passkey_register });
  if (body.method !== 'password') {
    addFlowMessage(flow.ui, messages.noRegistrationStrategy());
    return flowAgain(flow);
  }
  await showCredentialStep(ctx, flow, traits);
  return submitPassword(ctx, opened, traits);
}

/** The credential step: the password, or a passkey with a fresh challenge. */
async function showCredentialStep(ctx: FlowContext, flow: Flow, traits: Traits): Promise<void> {
  const nodes = credentialStepNodes(traits);
  const back = nodes.pop()!;
  nodes.push(...(await passkeyRegistrationNodes(ctx.idp, flow, traits)), back);
  flow.ui.nodes = nodes;
}

/** The passkey step: the identity is created with the new passkey as its only credential. */
async function submitPasskey(ctx: FlowContext, flow: Flow, input: { traits: Traits; answer: unknown }) {
  const created = await registerWithPasskey(ctx, flow, input);
  if (!created || 'refusal' in created) {
    await showCredentialStep(ctx, flow, input.traits);
    addFlowMessage(flow.ui, created ? created.refusal : messages.duplicateIdentifier());
    return flowAgain(flow);
  }
  return registered(ctx, flow, { identityId: created.identityId, traits: input.traits });
}

/** The password step: policy, then the identity and its password credential in one transaction. */
async function submitPassword(ctx: FlowContext, opened: OpenedFlow, traits: Traits): Promise<Outcome> {
  const { services } = ctx;
  const { flow, body } = opened;
  const password = body.password;
  if (typeof password !== 'string' || password === '') {
    addNodeMessage(flow.ui, 'password', messages.missingProperty('password'));
    return flowAgain(flow);
  }
  const violation = await services.passwordPolicy.validate(password, [traits.email]);
  if (violation) {
    addNodeMessage(flow.ui, 'password', violation);
    return flowAgain(flow);
  }
  const identityId = await insertRegisteredIdentity(ctx, { traits, password });
  if (identityId === undefined) {
    addFlowMessage(flow.ui, messages.duplicateIdentifier());
    return flowAgain(flow);
  }
  return registered(ctx, flow, { identityId, traits });
}

/** The new identity's id, or undefined when its address is taken. */
async function insertRegisteredIdentity(
  ctx: FlowContext,
  input: { traits: Traits; password: string },
): Promise<string | undefined> {
  const { db, clock } = ctx.idp;
  const hashed = await ctx.services.passwords.hash(input.password);
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      const id = await insertIdentity(trx, clock, { traits: input.traits });
      await saveCredential(trx, clock, id, 'password', { hashed_password: hashed }, [
        normaliseEmail(input.traits.email),
      ]);
      return id;
    });
  } catch (error) {
    if (error instanceof IdentityConflictError) return undefined;
    throw error;
  }
}

/** Registered: the flow is done, a verification code goes to the address, the identity is answered. */
async function registered(
  ctx: FlowContext,
  flow: Flow,
  created: { identityId: string; traits: Traits },
): Promise<Outcome> {
  const { services } = ctx;
  const { db, clock, config, log } = ctx.idp;
  flow.state = 'passed_challenge';
  await saveFlow(db.kysely, clock, flow);
  const verification = await startVerificationFlow(services, {
    type: flow.type,
    requestUrl: flow.requestUrl,
    csrfToken: flow.csrfToken,
    returnTo: flow.returnTo,
  });
  const email = normaliseEmail(created.traits.email);
  await sendVerificationCode(services, verification, { email, client: clientAddress(ctx.request) });
  log.info({ event: 'registration.success', identity: created.identityId }, 'account registered');
  const identity = (await findIdentity(db.kysely, created.identityId))!;
  const returnUrl = returnUrlOf(services, flow.returnTo);
  return { kind: 'completed', body: { identity: identityJson(identity, { publicUrl: config.publicUrl }) }, returnUrl };
}
