import type { FastifyInstance } from 'fastify';
import type { IdpContext } from './context.js';
import type { IdpServices } from './services.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerSelfServiceRoutes } from './flows/public-routes.js';
import { registerSessionRoutes } from './sessions/session-routes.js';
import { registerAdminRecoveryRoutes } from './flows/recovery/admin-recovery.js';
import { registerAdminIdentityRoutes, registerSchemaRoutes } from './admin/index.js';
import { createPasswordHasher, createPasswordPolicy, loadCommonPasswords } from './credentials/password/index.js';
import { createFailureThrottle } from './throttle/index.js';
import { createCourier, enqueueMail, registerDevMailbox } from './courier/index.js';

export interface IdentityProvider {
  services: IdpServices;
  /** Registers the Kratos public API routes (self-service, sessions, schemas). */
  registerPublicRoutes(app: FastifyInstance): Promise<void>;
  /** Registers the Kratos admin API routes and, without SMTP, the development mailbox. */
  registerAdminRoutes(app: FastifyInstance): Promise<void>;
  /** Only the development mailbox and error handling (when identities live in Ory Kratos). */
  registerMailboxOnly(app: FastifyInstance): Promise<void>;
  /** Starts background work (the courier). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createIdentityProvider(ctx: IdpContext): IdentityProvider {
  const { password } = ctx.config;
  const services: IdpServices = {
    ctx,
    passwords: createPasswordHasher({ concurrency: password.hashConcurrency, queueLimit: password.hashQueueLimit }),
    passwordPolicy: createPasswordPolicy({
      minLength: password.minLength,
      hibpUrl: ctx.config.hibpUrl,
      commonPasswords: loadCommonPasswords(),
    }),
    throttle: createFailureThrottle(ctx),
    mail: { enqueue: async (db, mail) => void (await enqueueMail(db, ctx.clock, mail)) },
  };
  const courier = createCourier(ctx);
  return {
    services,
    async registerPublicRoutes(app) {
      registerErrorHandling(app, ctx);
      registerSelfServiceRoutes(app, services);
      registerSessionRoutes(app, services);
      registerSchemaRoutes(app);
    },
    async registerAdminRoutes(app) {
      registerErrorHandling(app, ctx);
      registerAdminIdentityRoutes(app, services);
      registerAdminRecoveryRoutes(app, services);
      registerDevMailbox(app, ctx);
    },
    async registerMailboxOnly(app) {
      registerErrorHandling(app, ctx);
      registerDevMailbox(app, ctx);
    },
    async start() {
      await courier.start();
    },
    async stop() {
      await courier.stop();
    },
  };
}
