import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../services.js';
import type { IdentityRecord } from '../identities/identity-repository.js';
import { saveFlow, type Flow } from './flow.js';
import { flowUiUrl, redirect, sendFlow, wantsRedirect } from './flow-http.js';

/**
 * A submit that failed validation: the flow with its messages, as 400 JSON or a 303 back to the UI
 * (docs/kratos-compatibility.md#validation-errors-travel-inside-the-flow). Recovery and verification code failures
 * use 200 instead.
 */
export async function answerWithFlow(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  status = 400,
  identity?: IdentityRecord,
): Promise<FastifyReply> {
  await saveFlow(services.ctx.db.kysely, services.ctx.clock, flow);
  if (wantsRedirect(request, flow, true)) return redirect(reply, flowUiUrl(services, flow));
  return sendFlow(services, reply, status, flow, identity);
}
