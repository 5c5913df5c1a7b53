import type { IdpServices } from '../../services.js';
import type { UiText } from '../../ui/messages.js';
import { addFlowMessage } from '../../ui/nodes.js';
import { insertFlow, newFlow, type Flow, type FlowType } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { requestUrlOf, returnToOf, returnUrlOf } from '../flow-request.js';
import type { Outcome } from '../outcome.js';
import { alreadySignedIn, csrfTokenForNewFlow } from '../steps.js';
import { recoveryEmailNodes } from './nodes.js';

export async function startRecoveryFlow(
  services: IdpServices,
  init: {
    type: FlowType;
    requestUrl: string;
    csrfToken: string;
    returnTo: string | null;
    message?: UiText;
    lifespanMs?: number;
  },
): Promise<Flow> {
  const flow = newFlow(services.ctx, init.lifespanMs ?? services.ctx.config.lifespans.flowMs, {
    kind: 'recovery',
    type: init.type,
    requestUrl: init.requestUrl,
    csrfToken: init.csrfToken,
    returnTo: init.returnTo,
    // Kratos' NewFlow sets the one enabled method at once; Ory Elements needs it to pick the form.
    active: 'code',
  });
  flow.ui.nodes = recoveryEmailNodes();
  if (init.message) addFlowMessage(flow.ui, init.message);
  await insertFlow(services.ctx.db.kysely, flow);
  return flow;
}

/** `GET /self-service/recovery/{browser,api}` (docs/kratos-compatibility.md#recovery). */
export async function createRecoveryFlow(ctx: FlowContext): Promise<Outcome> {
  const { services } = ctx;
  const returnTo = returnToOf(services, ctx.query);
  if (await ctx.auth()) return alreadySignedIn('recovery', returnUrlOf(services, null), 302);
  const csrfToken = csrfTokenForNewFlow(ctx);
  const requestUrl = requestUrlOf(services, ctx.request);
  const flow = await startRecoveryFlow(services, { type: ctx.type, requestUrl, csrfToken, returnTo });
  return { kind: 'flow', flow, status: 200 };
}
