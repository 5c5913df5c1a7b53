import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import type { Authenticated } from '../../sessions/authenticate.js';
import { availableAal, sessionAal } from '../../sessions/aal.js';
import { messages } from '../../ui/messages.js';
import { addFlowMessage } from '../../ui/nodes.js';
import { insertFlow, newFlow, type Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { returnToOf, returnUrlOf } from '../flow-request.js';
import type { Outcome } from '../outcome.js';
import { alreadySignedIn } from '../steps.js';
import { passwordLoginNodes, refreshLoginNodes, secondFactorNodes } from './nodes.js';
import { type FlowStart, startFields, startOfRequest } from '../flow-start.js';
import { addPasskeyLogin, addSecurityKeyLogin } from './key-nodes.js';

/** Builds a login flow for the given session state; used at init and when an expired flow is replaced. */
export async function buildLoginFlow(
  services: IdpServices,
  init: FlowStart & { refresh: boolean; aal: 'aal1' | 'aal2' },
  auth: Authenticated | undefined,
): Promise<Flow> {
  const flow = newFlow(services.ctx, services.ctx.config.lifespans.flowMs, {
    kind: 'login',
    ...startFields(init),
    refresh: init.refresh,
    requestedAal: init.aal,
  });
  if (init.aal === 'aal2' && auth) {
    flow.ui.nodes = secondFactorNodes(auth.credentials);
    await addSecurityKeyLogin(services.ctx, flow, auth.credentials, auth.identity.traits.email);
    addFlowMessage(flow.ui, messages.secondFactorChallenge());
  } else if (init.refresh && auth) {
    flow.ui.nodes = refreshLoginNodes(auth.identity.traits.email);
    await addPasskeyLogin(services.ctx, flow, auth.credentials);
    addFlowMessage(flow.ui, messages.confirmIdentity());
  } else {
    flow.ui.nodes = passwordLoginNodes();
    await addPasskeyLogin(services.ctx, flow);
  }
  return flow;
}

/** The `aal` query parameter: aal1 when absent, else aal1 or aal2, else 400. */
function requestedAal(ctx: FlowContext): 'aal1' | 'aal2' {
  const aal = ctx.query.aal === undefined || ctx.query.aal === '' ? 'aal1' : ctx.query.aal;
  if (aal !== 'aal1' && aal !== 'aal2') {
    throw kratosErrors.unknownAal(aal);
  }
  return aal;
}

/** A session that already meets the requested level needs no new login (unless it is a refresh). */
const alreadyEnough = (auth: Authenticated, aal: 'aal1' | 'aal2'): boolean =>
  aal === 'aal1' || sessionAal(auth.session.methods) === 'aal2' || availableAal(auth.credentials) !== 'aal2';

/** `GET /self-service/login/{browser,api}` (docs/kratos-compatibility.md#creating-a-login-flow). */
export async function createLoginFlow(ctx: FlowContext): Promise<Outcome> {
  const { services } = ctx;
  const aal = requestedAal(ctx);
  const returnTo = returnToOf(services, ctx.query);
  const auth = await ctx.auth();
  if (!auth && aal === 'aal2') throw kratosErrors.sessionAal1Required();
  const refresh = auth !== undefined && ctx.query.refresh === 'true';
  if (auth && !refresh && alreadyEnough(auth, aal)) return alreadySignedIn('login', returnUrlOf(services, returnTo));

  const flow = await buildLoginFlow(services, { ...startOfRequest(ctx, returnTo), refresh, aal }, auth);
  await insertFlow(ctx.idp.db.kysely, flow);
  return { kind: 'flow', flow, status: 200 };
}
