import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { publicUrlOf, uiUrl } from '../http/return-to.js';
import { authenticate } from '../sessions/authenticate.js';
import { availableAal, sessionAal } from '../sessions/aal.js';
import { findFlow, isExpired, type FlowKind } from './flow.js';
import { ensureFlowCsrfCookie, sendFlow } from './flow-http.js';
import { queryOf } from './flow-request.js';

/** `GET /self-service/<kind>/flows?id=` for every flow kind (docs/kratos-compatibility.md#flow-objects). */
export async function getFlow(services: IdpServices, request: FastifyRequest, reply: FastifyReply, kind: FlowKind) {
  const { ctx } = services;
  const flow = await findFlow(ctx.db.kysely, kind, queryOf(request).id);
  if (!flow) throw kratosErrors.flowNotFound();
  const now = ctx.clock.now();

  if (kind === 'settings') {
    const auth = await authenticate(services, request);
    if (!auth) throw kratosErrors.noSessionCredentials('A valid Ory Session Cookie or Ory Session Token is missing.');
    if (auth.identity.id !== flow.identityId) throw kratosErrors.identityMismatch(false);
    if (availableAal(auth.credentials) === 'aal2' && sessionAal(auth.session.methods) !== 'aal2') {
      // Back to the settings screen with this flow afterwards, as Kratos' getSettingsFlow does.
      const settingsUrl = uiUrl(ctx.config, 'settings', { flow: flow.id });
      throw kratosErrors.sessionAal2Required(
        publicUrlOf(ctx.config, '/self-service/login/browser', { aal: 'aal2', return_to: settingsUrl }),
      );
    }
    if (isExpired(flow, now)) {
      const initUrl = publicUrlOf(ctx.config, `/self-service/${kind}/${flow.type}`);
      // Kratos answers an expired settings flow without an error id (docs/kratos-compatibility.md#flow-objects).
      throw kratosErrors.flowExpiredOnGet(kind, flow.type, initUrl, flow.returnTo, false);
    }
    return sendFlow(services, reply, 200, flow, auth.identity);
  }

  ensureFlowCsrfCookie(services, request, flow);
  if (isExpired(flow, now)) {
    const initUrl = publicUrlOf(ctx.config, `/self-service/${kind}/${flow.type}`);
    // Only login, registration and API recovery flows answer with an error id, as in Kratos
    // (docs/kratos-compatibility.md#flow-objects).
    const withId = kind === 'login' || kind === 'registration' || (kind === 'recovery' && flow.type === 'api');
    throw kratosErrors.flowExpiredOnGet(kind, flow.type, initUrl, flow.returnTo, withId);
  }
  return sendFlow(services, reply, 200, flow);
}
