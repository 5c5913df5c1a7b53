import type { FastifyRequest } from 'fastify';
import type { AuditEntry } from '../audit/audit-log.js';
import type { Catalogue, DataService } from '../catalogue/catalogue.js';
import type { ApiContext } from '../context.js';
import { auditAbout } from '../audit/audit-about.js';
import { errors } from '../api-error.js';
import { type Caller, resolveCaller } from '../users/caller.js';
import { mayUse } from '../users/person-service.js';
import { hasSecondStep, secondFactorMet } from '../users/second-factor.js';
import type { FirstUses } from './first-uses.js';
import { identityHeaders } from './identity-headers.js';
import type { RefusalCounts } from './refusal-counts.js';
import { chooseService, firstValue } from './service-choice.js';
import { originalUrl, signInUrl } from './sign-in-url.js';

/** What a check decided: let the request through with these headers, or send the browser to sign in first. */
export type ForwardAuthOutcome =
  | {
      allowed: true;
      headers: Record<string, string>;
      /** What the pass was decided with and about, for keeping it (kept-checks.ts). */
      serviceId: string;
      catalogue: Catalogue;
      unchangedUntil?: number;
    }
  | { allowed: false; signIn: string; secondFactor: boolean };

const ACTION = 'service.sign_in';

/** What the checks of one process remember for the audit log: never who passes, only what is written. */
export interface ForwardAuthMemory {
  firstUses: FirstUses;
  refusals: RefusalCounts;
}

/**
 * `GET /api/forward-auth` (docs/architecture.md#forward-authentication): may the session of this request use the
 * data service the proxy asks about? The session and the person's tuples are read on every check, as for every
 * other call, so a revoked session, a blocked person or a withdrawn data role is refused at once; only the catalogue
 * comes from the cache every call uses (at most 5 seconds old). An unknown service is a 4xx (`chooseService`), a person
 * without access a 403, both thrown; no usable session is an outcome, because the route answers it per proxy.
 */
export async function checkForwardAuth(
  ctx: ApiContext,
  request: FastifyRequest,
  serviceId: string | undefined,
  memory: ForwardAuthMemory,
): Promise<ForwardAuthOutcome> {
  const catalogue = await ctx.catalogue.current();
  const { headers } = request;
  const service = chooseService(catalogue, {
    serviceId,
    forwardedHost: firstValue(headers['x-forwarded-host']),
    forwardedProto: firstValue(headers['x-forwarded-proto']),
    forwardedUri: Array.isArray(headers['x-forwarded-uri'])
      ? headers['x-forwarded-uri'][0]
      : headers['x-forwarded-uri'],
  });
  // `secondFactor`: a session without the second factor it needs; `secondStep`: the sign-in asks for that step.
  const signIn = (secondFactor: boolean, secondStep: boolean): ForwardAuthOutcome => ({
    allowed: false,
    signIn: signInUrl(ctx.options.publicUrl, originalUrl(headers, service), secondStep),
    secondFactor,
  });

  const session = await ctx.backend.identities.sessionOf(request.headers);
  if (!session) return signIn(false, false);
  const caller = await resolveCaller(session, ctx.backend.relations, catalogue, ctx.options.dashboardAllowlist);
  if (caller.aal2Required && !secondFactorMet(session)) {
    refused(request, caller, service, memory, 'second factor required');
    // Without a second step (app, backup codes, security key) the sign-in screen sends the person on: to link an app,
    // or, with a passkey only, to sign in again with it.
    return signIn(true, hasSecondStep(session.identity.credentials));
  }
  if (!mayUse(service, caller.tuples, catalogue)) {
    refused(request, caller, service, memory, 'no access to the service');
    throw errors.serviceDenied();
  }
  if (memory.firstUses.first(session.sessionId, service.id)) {
    await audited(ctx, request, auditAbout(caller, request, ACTION, null, 'success', { service: service.id }));
  }
  return {
    allowed: true,
    headers: identityHeaders(caller, service),
    serviceId: service.id,
    catalogue,
    unchangedUntil: session.unchangedUntil,
  };
}

/** A refusal is counted, and written once per session, service, reason and minute (`refusal-counts.ts`). */
function refused(
  request: FastifyRequest,
  caller: Caller,
  service: DataService,
  memory: ForwardAuthMemory,
  reason: string,
): void {
  const { sessionId } = caller.session;
  memory.firstUses.forget(sessionId, service.id);
  const details = { service: service.id, reason };
  memory.refusals.count(sessionId, { ...auditAbout(caller, request, ACTION, null, 'denied', details), details });
}

/** A failing audit write is logged and never decides a check (docs/architecture.md#the-audit-log). */
async function audited(ctx: ApiContext, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  try {
    await ctx.audit.record(entry);
  } catch (error) {
    request.log.error({ err: error }, 'forward-auth audit write failed');
  }
}
