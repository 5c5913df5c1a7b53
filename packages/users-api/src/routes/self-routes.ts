import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { brandOf } from '../http/house-page.js';
import { callerIn, signedIn } from '../http/guards.js';
import { checked } from '../http/request-schema.js';
import { recoveryQuery } from '../http/validation.js';
import { otherAdministrators, recoveryAllowed, sendRecoveryLink, servicesOf, whoami } from '../users/person-service.js';

const RECOVERY = { querystring: recoveryQuery };

/**
 * The calls about the caller: config, whoami, configured credentials, administrators, services, recovery. What
 * they answer is made in users/person-service.ts.
 */
export function registerSelfRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const { options } = ctx;

  app.get('/config', async () => ({
    ...brandOf(options),
    supportEmail: options.supportEmail ?? null,
    feedbackEmail: options.feedbackEmail ?? null,
    accessibilityStatementUrl: options.accessibilityStatementUrl ?? null,
    privacyStatementUrl: options.privacyStatementUrl ?? null,
    registrationEnabled: options.registrationEnabled,
    dashboardAllowlist: options.dashboardAllowlist.length > 0,
    sessionIdleSeconds: options.sessionIdleMs === undefined ? null : Math.round(options.sessionIdleMs / 1000),
  }));

  // The portal's guards need these two before the second step, so an aal1 session may call them.
  app.get('/users/whoami', { preValidation: signedIn(ctx, { aal1: true }) }, (request) =>
    whoami(ctx, callerIn(request)),
  );

  app.get('/users/configured-credentials', { preValidation: signedIn(ctx, { aal1: true }) }, async (request) => {
    const credentials = callerIn(request).session.identity.credentials;
    return { totp: credentials.includes('totp'), lookup_secret: credentials.includes('lookup_secret') };
  });

  // The settings' list of security keys and passkeys also shows on the enrolment screen, before the second step.
  app.get('/users/security-keys', { preValidation: signedIn(ctx, { aal1: true }) }, async (request) => ({
    keys: await ctx.backend.identities.keysOf(callerIn(request).session.identity.id),
  }));

  app.get('/users/admins', { preValidation: signedIn(ctx) }, (request) => otherAdministrators(ctx, callerIn(request)));

  app.get('/services', { preValidation: signedIn(ctx) }, (request) => servicesOf(ctx, callerIn(request)));

  // No session needed; throttled; the same answer whether or not the address has an account (no enumeration).
  app.get('/users/password-recovery', { schema: RECOVERY }, async (request, reply) => {
    const { email } = checked(request, RECOVERY).query;
    const allowed = await recoveryAllowed(ctx, request, email);
    // The mail is prepared after the answer, so that known and unknown addresses also take the same time.
    setImmediate(() => {
      if (!allowed) return;
      sendRecoveryLink(ctx, { ip: request.ip }, email).catch((error: unknown) =>
        request.log.error({ err: error }, 'password recovery mail failed'),
      );
    });
    return reply.code(200).send({ sent: true });
  });
}
