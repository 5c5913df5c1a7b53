import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { parseDuration } from '../../duration.js';
import { publicUrlOf, uiUrl } from '../../http/return-to.js';
import { findIdentity, type IdentityRecord } from '../../identities/identity-repository.js';
import { issueCode } from '../../codes/one-time-codes.js';
import { saveFlow, type Flow } from '../flow.js';
import { sendJson } from '../../http/send-json.js';
import { recoveryCodeNodes } from './nodes.js';
import { startRecoveryFlow } from './create.js';

const body = z
  .object({
    identity_id: z.string().max(64),
    expires_in: z.string().max(32).optional(),
    flow_type: z.enum(['browser', 'api']).optional(),
  })
  .strict();

/**
 * `POST /admin/recovery/code` and `/admin/recovery/link` (docs/kratos-compatibility.md#admin-recovery): a recovery flow
 * already in `sent_email` state, without CSRF, whose code or link the caller hands to the person (the invitation
 * mail).
 */
async function startAdminRecoveryFlow(
  services: IdpServices,
  lifespanMs: number,
  type: 'browser' | 'api' = 'browser',
): Promise<Flow> {
  const { config } = services.ctx;
  const flow = await startRecoveryFlow(services, {
    type,
    requestUrl: publicUrlOf(config, '/self-service/recovery/browser'),
    csrfToken: crypto.randomBytes(32).toString('base64'),
    returnTo: null,
    lifespanMs: Math.max(lifespanMs, config.lifespans.flowMs),
  });
  flow.internal.skip_csrf = true;
  flow.state = 'sent_email';
  return flow;
}

export function registerAdminRecoveryRoutes(app: FastifyInstance, services: IdpServices): void {
  const { ctx } = services;

  async function prepare(raw: unknown) {
    const parsed = body.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => i.message).join('; ');
      throw kratosErrors.badRequest(`The request body is invalid: ${problems}`);
    }
    const { identity_id: identityId, expires_in: expiresIn } = parsed.data;
    let lifespanMs = ctx.config.lifespans.codeMs;
    if (expiresIn !== undefined) {
      const parsedMs = parseDuration(expiresIn);
      if (parsedMs === undefined) {
        throw kratosErrors.badRequest(
          `Unable to parse "expires_in" as a duration string (e.g. "1h", "1m30s", "500ms"): ${expiresIn}`,
        );
      }
      if (parsedMs <= 0) throw kratosErrors.badRequest('Value from "expires_in" must result to a future time.');
      lifespanMs = parsedMs;
    }
    const identity = /^[0-9a-f-]{36}$/i.test(identityId) ? await findIdentity(ctx.db.kysely, identityId) : undefined;
    if (!identity) throw kratosErrors.notFound('could not find identity');
    const flow = await startAdminRecoveryFlow(services, lifespanMs, parsed.data.flow_type);
    return { identity, flow, lifespanMs };
  }

  app.post('/admin/recovery/code', async (request, reply) => {
    const { identity, flow, lifespanMs } = await prepare(request.body);
    flow.active = 'code';
    flow.ui.nodes = recoveryCodeNodes(identity.traits.email);
    const code = await issueWithFlow(services, flow, 'recovery_code', { identity, lifespanMs });
    return sendJson(reply, 201, {
      recovery_link: uiUrl(ctx.config, 'recovery', { flow: flow.id }),
      recovery_code: code.value,
      expires_at: code.expiresAt.toISOString(),
    });
  });

  app.post('/admin/recovery/link', async (request, reply) => {
    const { identity, flow, lifespanMs } = await prepare(request.body);
    return sendJson(reply, 200, await issueRecoveryLink(services, flow, { identity, lifespanMs }));
  });
}

/**
 * A recovery code or link token and the flow that carries it, written together
 * (docs/architecture.md#writes-that-belong-together).
 */
function issueWithFlow(
  services: IdpServices,
  flow: Flow,
  purpose: 'recovery_code' | 'recovery_link',
  { identity, lifespanMs }: { identity: IdentityRecord; lifespanMs: number },
) {
  const { ctx } = services;
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const issued = await issueCode(trx, ctx.clock, {
      flowId: flow.id,
      purpose,
      identityId: identity.id,
      address: identity.traits.email,
      lifespanMs,
    });
    await saveFlow(trx, ctx.clock, flow);
    return issued;
  });
}

async function issueRecoveryLink(
  services: IdpServices,
  flow: Flow,
  link: { identity: IdentityRecord; lifespanMs: number },
) {
  const { ctx } = services;
  flow.active = 'link';
  const token = await issueWithFlow(services, flow, 'recovery_link', link);
  return {
    recovery_link: publicUrlOf(ctx.config, '/self-service/recovery', { flow: flow.id, token: token.value }),
    expires_at: token.expiresAt.toISOString(),
  };
}

/** A recovery link for an identity, as `POST /admin/recovery/link` makes it (invitations, the portal's recovery). */
export async function createRecoveryLink(services: IdpServices, identity: IdentityRecord, lifespanMs: number) {
  const flow = await startAdminRecoveryFlow(services, lifespanMs);
  return issueRecoveryLink(services, flow, { identity, lifespanMs });
}
