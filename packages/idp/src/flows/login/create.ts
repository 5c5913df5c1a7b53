import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../../services.js';
import { HttpError } from '../../errors/herodot.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { authenticate, type Authenticated } from '../../sessions/authenticate.js';
import { availableAal, sessionAal } from '../../sessions/aal.js';
import { messages } from '../../ui/messages.js';
import { addFlowMessage } from '../../ui/nodes.js';
import { insertFlow, newFlow, type Flow, type FlowType } from '../flow.js';
import { ensureCsrfCookie, flowUiUrl, redirect, sendFlow, wantsRedirect, withBrowserErrors } from '../flow-http.js';
import { queryOf, requestUrlOf, returnToOf, returnUrlOf } from '../flow-request.js';
import { passwordLoginNodes, refreshLoginNodes, secondFactorNodes } from './nodes.js';

/** Builds a login flow for the given session state; used at init and when an expired flow is replaced. */
export function buildLoginFlow(
  services: IdpServices,
  init: {
    type: FlowType;
    requestUrl: string;
    csrfToken: string;
    returnTo: string | null;
    refresh: boolean;
    aal: 'aal1' | 'aal2';
  },
  auth: Authenticated | undefined,
): Flow {
  const flow = newFlow(services.ctx, services.ctx.config.lifespans.flowMs, {
    kind: 'login',
    type: init.type,
    requestUrl: init.requestUrl,
    csrfToken: init.csrfToken,
    returnTo: init.returnTo,
    refresh: init.refresh,
    requestedAal: init.aal,
  });
  if (init.aal === 'aal2' && auth) {
    flow.ui.nodes = secondFactorNodes(auth.credentials);
    addFlowMessage(flow.ui, messages.secondFactorChallenge());
  } else if (init.refresh && auth) {
    flow.ui.nodes = refreshLoginNodes(auth.identity.traits.email);
    addFlowMessage(flow.ui, messages.confirmIdentity());
  } else {
    flow.ui.nodes = passwordLoginNodes();
  }
  return flow;
}

/** `GET /self-service/login/{browser,api}` (docs/kratos-compatibility.md#creating-a-login-flow). */
export async function createLoginFlow(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
) {
  const asRedirect = type === 'browser' && wantsRedirect(request);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    const query = queryOf(request);
    const aal = query.aal === undefined || query.aal === '' ? 'aal1' : query.aal;
    if (aal !== 'aal1' && aal !== 'aal2') {
      throw new HttpError({
        code: 400,
        reason:
          'Unable to parse AuthenticationMethod Assurance Level (AAL): ' +
          `expected one of [aal1, aal2] but got ${aal}`,
      });
    }
    const returnTo = returnToOf(services, query);
    const auth = await authenticate(services, request);
    if (!auth && aal === 'aal2') throw kratosErrors.sessionAal1Required();
    const refresh = auth !== undefined && query.refresh === 'true';

    if (auth && !refresh) {
      const alreadyEnough =
        aal === 'aal1' || sessionAal(auth.session.methods) === 'aal2' || availableAal(auth.credentials) !== 'aal2';
      if (alreadyEnough) {
        if (asRedirect) return redirect(reply, returnUrlOf(services, returnTo));
        throw kratosErrors.sessionAlreadyAvailable('login');
      }
    }

    const csrfToken =
      type === 'browser' ? ensureCsrfCookie(services, request, reply) : crypto.randomBytes(32).toString('base64');
    const flow = buildLoginFlow(
      services,
      { type, requestUrl: requestUrlOf(services, request), csrfToken, returnTo, refresh, aal },
      auth,
    );
    await insertFlow(services.ctx.db.kysely, flow);
    if (asRedirect) return redirect(reply, flowUiUrl(services, flow));
    return sendFlow(services, reply, 200, flow);
  });
}
