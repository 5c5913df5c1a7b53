import type { IdpServices } from '../../services.js';
import { newFlow, type Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { returnToOf, returnUrlOf } from '../flow-request.js';
import type { Outcome } from '../outcome.js';
import { alreadySignedIn } from '../steps.js';
import { recoveryEmailNodes } from './nodes.js';
import { type FlowStart, startFields, startOfRequest, storeStartedFlow } from '../flow-start.js';

export async function startRecoveryFlow(
  services: IdpServices,
  start: FlowStart & { lifespanMs?: number },
): Promise<Flow> {
  const flow = newFlow(services.ctx, start.lifespanMs ?? services.ctx.config.lifespans.flowMs, {
    kind: 'recovery',
    ...startFields(start),
    // Kratos' NewFlow sets the one enabled method at once; Ory Elements needs it to pick the form.
    active: 'code',
  });
  flow.ui.nodes = recoveryEmailNodes();
  return storeStartedFlow(services.ctx.db.kysely, flow, start);
}

/** `GET /self-service/recovery/{browser,api}` (docs/kratos-compatibility.md#recovery). */
export async function createRecoveryFlow(ctx: FlowContext): Promise<Outcome> {
  const { services } = ctx;
  const returnTo = returnToOf(services, ctx.query);
  if (await ctx.auth()) return alreadySignedIn('recovery', returnUrlOf(services, null), 302);
  const flow = await startRecoveryFlow(services, startOfRequest(ctx, returnTo));
  return { kind: 'flow', flow, status: 200 };
}
