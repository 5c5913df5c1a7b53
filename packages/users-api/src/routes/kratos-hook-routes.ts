import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { organisationsInTuples, signInAuditor, type SignInEvent } from '../audit/sign-in-audit.js';
import type { ApiContext } from '../context.js';
import { errors } from '../api-error.js';
import { parse } from '../http/validation.js';

/** Under `/api`; `kratos.yml`'s login web_hook points here (deploy/ory/README.md). */
export const KRATOS_LOGIN_HOOK_PATH = '/hooks/kratos/login';

/**
 * What `deploy/ory/login-audit.jsonnet` makes of Kratos' web_hook context after a successful sign-in step. Fields
 * beyond these are ignored, so that the template may grow before the portal reads more.
 */
export const loginHookBodySchema = z.object({
  identity_id: z.uuid(),
  email: z.string().max(320).nullish(),
  flow_id: z.uuid(),
  /** The method of this sign-in step (the login flow's `active`): `password`, `totp`, `lookup_secret`, … */
  method: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/),
  /** The session's assurance level after the step. */
  aal: z.enum(['aal0', 'aal1', 'aal2', 'aal3']).nullish(),
  client_address: z.string().max(100).nullish(),
});
export type LoginHookBody = z.infer<typeof loginHookBodySchema>;

/**
 * Kratos takes the client address from True-Client-IP, X-Real-IP or X-Forwarded-For, or else the connection's
 * `host:port`: the port is dropped, and anything that is not an IP address is not recorded.
 */
export function clientAddressFrom(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const address = raw.trim();
  const candidates = [address, /^\[([^\]]+)\](?::\d+)?$/.exec(address)?.[1], /^([\d.]+):\d+$/.exec(address)?.[1]];
  return candidates.find((candidate): candidate is string => !!candidate && isIP(candidate) !== 0) ?? null;
}

/** The audit log's sign-in event for the hook's body: a successful sign-in step, as the embedded provider emits. */
export function signInEventOf(body: LoginHookBody): SignInEvent {
  return {
    type: 'login.success',
    method: body.method,
    identityId: body.identity_id,
    identifier: body.email ?? undefined,
    clientAddress: clientAddressFrom(body.client_address),
  };
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** `Authorization: Bearer <secret>`, compared in constant time (digests of equal length, whatever was sent). */
function carriesSecret(request: FastifyRequest, secret: string): boolean {
  const presented = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(presented), digest(secret));
}

/**
 * `POST /api/hooks/kratos/login`: Kratos' web_hook after a successful sign-in step, on Ory only, which writes the
 * audit entries the embedded provider writes for it (audit/sign-in-audit.ts). It is called server to server, so the
 * Users API's Origin check does not apply (http/register.ts); instead it needs the shared secret of
 * ORY_WEBHOOK_SECRET, without which it answers 401 and writes nothing. Without a secret configured it answers 404.
 * Kratos calls it with `response.ignore: true` (deploy/ory/kratos.yml): whatever it answers, the sign-in goes on.
 */
export function registerKratosHookRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const secret = ctx.options.kratosHookSecret;
  const auditSignIn = signInAuditor(organisationsInTuples(ctx.backend.relations), ctx.audit, ctx.lastSignIns);
  app.post(
    KRATOS_LOGIN_HOOK_PATH,
    {
      // Before the body is read: a call without the secret costs no parsing and learns nothing about the format.
      onRequest: async (request, reply) => {
        if (!secret) throw errors.notFound();
        if (!carriesSecret(request, secret)) {
          request.log.warn('kratos login hook refused: no valid secret');
          void reply.header('WWW-Authenticate', 'Bearer');
          throw errors.hookUnauthorised();
        }
      },
    },
    async (request, reply) => {
      const body = parse(loginHookBodySchema, request.body);
      await auditSignIn(signInEventOf(body), { kratos_flow_id: body.flow_id, aal: body.aal ?? null });
      return reply.code(204).send();
    },
  );
}
