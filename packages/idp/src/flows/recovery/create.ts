import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { authenticate } from '../../sessions/authenticate.js';
import type { UiText } from '../../ui/messages.js';
import { addFlowMessage } from '../../ui/nodes.js';
import { insertFlow, newFlow, type Flow, type FlowType } from '../flow.js';
import { ensureCsrfCookie, flowUiUrl, redirect, sendFlow, wantsRedirect, withBrowserErrors } from '../flow-http.js';
import { queryOf, requestUrlOf, returnToOf, returnUrlOf } from '../flow-request.js';
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
export async function createRecoveryFlow(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
) {
  const asRedirect = type === 'browser' && wantsRedirect(request);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    const returnTo = returnToOf(services, queryOf(request));
    if (await authenticate(services, request)) {
      if (asRedirect) return redirect(reply, returnUrlOf(services, null), 302);
      throw kratosErrors.sessionAlreadyAvailable('recovery');
    }
    const csrfToken =
      type === 'browser' ? ensureCsrfCookie(services, request, reply) : crypto.randomBytes(32).toString('base64');
    const flow = await startRecoveryFlow(services, {
      type,
      requestUrl: requestUrlOf(services, request),
      csrfToken,
      returnTo,
    });
    if (asRedirect) return redirect(reply, flowUiUrl(services, flow));
    return sendFlow(services, reply, 200, flow);
  });
}
