import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { publicUrlOf } from '../http/return-to.js';
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
      const settingsUrl = publicUrlOf(ctx.config, '/self-service/settings', { flow: flow.id });
      throw kratosErrors.sessionAal2Required(
        publicUrlOf(ctx.config, '/self-service/login/browser', { aal: 'aal2', return_to: settingsUrl }),
      );
    }
    if (isExpired(flow, now)) {
      throw kratosErrors.flowExpiredOnGet(
        kind,
        publicUrlOf(ctx.config, `/self-service/${kind}/browser`),
        flow.returnTo,
        true,
      );
    }
    return sendFlow(services, reply, 200, flow, auth.identity);
  }

  ensureFlowCsrfCookie(services, request, flow);
  if (isExpired(flow, now)) {
    const initUrl = publicUrlOf(ctx.config, `/self-service/${kind}/${flow.type}`);
    // Recovery and verification answer without an error id, as Kratos does (docs/kratos-compatibility.md#flow-objects).
    throw kratosErrors.flowExpiredOnGet(kind, initUrl, flow.returnTo, kind !== 'recovery' && kind !== 'verification');
  }
  return sendFlow(services, reply, 200, flow);
}
