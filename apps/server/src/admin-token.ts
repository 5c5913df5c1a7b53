import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '@portaal/idp';

/** The probes of an orchestrator or a load balancer send no token; they learn nothing but ok or not. */
const OPEN_PATHS = new Set(['/health/alive', '/health/ready']);

const REFUSAL = new HttpError({ code: 401, reason: 'The admin API requires the bearer token set in ADMIN_API_TOKEN.' });

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `ADMIN_API_TOKEN`: when set, every request to the admin listener but the health probes must carry
 * `Authorization: Bearer <token>` (docs/security.md#55-admin-api-token). Without it the listener relies on the
 * network alone, as Ory Kratos' admin API does: loopback, or a NetworkPolicy.
 */
export function requireAdminToken(app: FastifyInstance, token: string | undefined): void {
  if (token === undefined) return;
  const expected = digest(token);
  app.addHook('onRequest', async (request, reply) => {
    if (OPEN_PATHS.has(request.url.split('?')[0]!)) return;
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return;
    // Answered here rather than thrown: the Keto routes' own error handler would not know the envelope.
    return reply.code(401).header('WWW-Authenticate', 'Bearer realm="portaal-admin"').send(REFUSAL.toEnvelope());
  });
}
