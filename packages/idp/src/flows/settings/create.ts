import type { IdpServices } from '../../services.js';
import { HttpError } from '../../errors/herodot.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { publicUrlOf } from '../../http/return-to.js';
import type { Authenticated } from '../../sessions/authenticate.js';
import { ensureHighestAvailableAal } from '../../sessions/session-routes.js';
import { newFlow, type Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { returnToOf } from '../flow-request.js';
import { failWith, type Outcome } from '../outcome.js';
import { settingsNodes } from './nodes.js';
import { type FlowStart, startFields, startOfRequest, storeStartedFlow } from '../flow-start.js';

/** Creates and stores a settings flow for a signed-in identity (also used after recovery). */
export async function startSettingsFlow(
  services: IdpServices,
  auth: Pick<Authenticated, 'identity' | 'credentials' | 'session'>,
  init: FlowStart,
): Promise<Flow> {
  const flow = newFlow(services.ctx, services.ctx.config.lifespans.flowMs, {
    kind: 'settings',
    ...startFields(init),
    state: 'show_form',
    identityId: auth.identity.id,
    sessionId: auth.session.id,
  });
  flow.ui.nodes = await settingsNodes(services, { flow, identity: auth.identity, credentials: auth.credentials });
  return storeStartedFlow(services.ctx.db.kysely, flow, init);
}

/** `GET /self-service/settings/{browser,api}` (docs/kratos-compatibility.md#settings). */
export async function createSettingsFlow(ctx: FlowContext): Promise<Outcome> {
  const { services } = ctx;
  const { config } = ctx.idp;
  const returnTo = returnToOf(services, ctx.query);
  const auth = await ctx.auth();
  if (!auth) {
    const error =
      ctx.type === 'api'
        ? kratosErrors.sessionInactive(
            'This endpoint can only be accessed with a valid session. Please log in and try again.',
          )
        : kratosErrors.sessionInactive();
    const to = publicUrlOf(config, '/self-service/login/browser', { return_to: returnTo ?? undefined });
    return { kind: 'browser_redirect', to, otherwise: failWith(error) };
  }
  try {
    ensureHighestAvailableAal(services, auth, returnTo ?? undefined);
  } catch (error) {
    const to = publicUrlOf(config, '/self-service/login/browser', { aal: 'aal2', return_to: returnTo ?? undefined });
    if (error instanceof HttpError) return { kind: 'browser_redirect', to, otherwise: failWith(error) };
    throw error;
  }
  const flow = await startSettingsFlow(services, auth, startOfRequest(ctx, returnTo));
  return { kind: 'flow', flow, status: 200, identity: auth.identity };
}
