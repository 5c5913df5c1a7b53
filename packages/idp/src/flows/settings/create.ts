import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { publicUrlOf } from '../../http/return-to.js';
import { authenticate, type Authenticated } from '../../sessions/authenticate.js';
import { ensureHighestAvailableAal } from '../../sessions/session-routes.js';
import type { UiText } from '../../ui/messages.js';
import { addFlowMessage } from '../../ui/nodes.js';
import { insertFlow, newFlow, type Flow, type FlowType } from '../flow.js';
import { ensureCsrfCookie, flowUiUrl, redirect, sendFlow, wantsRedirect, withBrowserErrors } from '../flow-http.js';
import { queryOf, requestUrlOf, returnToOf } from '../flow-request.js';
import { settingsNodes } from './nodes.js';

/** Creates and stores a settings flow for a signed-in identity (also used after recovery). */
export async function startSettingsFlow(
  services: IdpServices,
  auth: Pick<Authenticated, 'identity' | 'credentials' | 'session'>,
  init: { type: FlowType; requestUrl: string; csrfToken: string; returnTo: string | null; message?: UiText },
): Promise<Flow> {
  const flow = newFlow(services.ctx, services.ctx.config.lifespans.flowMs, {
    kind: 'settings',
    type: init.type,
    requestUrl: init.requestUrl,
    csrfToken: init.csrfToken,
    returnTo: init.returnTo,
    state: 'show_form',
    identityId: auth.identity.id,
    sessionId: auth.session.id,
  });
  flow.ui.nodes = await settingsNodes(services, flow, auth.identity, auth.credentials);
  if (init.message) addFlowMessage(flow.ui, init.message);
  await insertFlow(services.ctx.db.kysely, flow);
  return flow;
}

/** `GET /self-service/settings/{browser,api}` (docs/kratos-compatibility.md#settings). */
export async function createSettingsFlow(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
) {
  const asRedirect = type === 'browser' && wantsRedirect(request);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    const query = queryOf(request);
    const returnTo = returnToOf(services, query);
    const auth = await authenticate(services, request);
    if (!auth) {
      if (asRedirect) {
        return redirect(
          reply,
          publicUrlOf(services.ctx.config, '/self-service/login/browser', { return_to: returnTo ?? undefined }),
        );
      }
      throw type === 'api'
        ? kratosErrors.sessionInactive(
            'This endpoint can only be accessed with a valid session. Please log in and try again.',
          )
        : kratosErrors.sessionInactive();
    }
    try {
      ensureHighestAvailableAal(services, auth, returnTo ?? undefined);
    } catch (error) {
      if (asRedirect) {
        return redirect(
          reply,
          publicUrlOf(services.ctx.config, '/self-service/login/browser', {
            aal: 'aal2',
            return_to: returnTo ?? undefined,
          }),
        );
      }
      throw error;
    }
    const csrfToken =
      type === 'browser' ? ensureCsrfCookie(services, request, reply) : crypto.randomBytes(32).toString('base64');
    const flow = await startSettingsFlow(services, auth, {
      type,
      requestUrl: requestUrlOf(services, request),
      csrfToken,
      returnTo,
    });
    if (asRedirect) return redirect(reply, flowUiUrl(services, flow));
    return sendFlow(services, reply, 200, flow, auth.identity);
  });
}
