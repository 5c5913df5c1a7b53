import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { IdpContext } from './context.js';
import type { IdpServices } from './services.js';
import { kratosErrorHandler, registerErrorHandling } from './http/error-handler.js';
import { registerSelfServiceRoutes } from './flows/public-routes.js';
import { registerSessionRoutes } from './sessions/session-routes.js';
import { registerAdminRecoveryRoutes } from './flows/recovery/admin-recovery.js';
import { registerAdminIdentityRoutes, registerSchemaRoutes } from './admin/index.js';
import { createPasswordHasher, createPasswordPolicy, loadCommonPasswords } from './credentials/password/index.js';
import { createFailureThrottle } from './throttle/index.js';
import { createCourier, enqueueMail, registerDevMailbox } from './courier/index.js';
import { whoamiBeforeRouting, type EarlyAnswerer } from './sessions/whoami-before-routing.js';

export interface IdentityProvider {
  services: IdpServices;
  /**
   * The Kratos public API (self-service, sessions, schemas) as an encapsulated Fastify plugin whose routes answer
   * every error in Kratos' envelope. It reads cookies with the listener's @fastify/cookie, which the Users API shares.
   */
  publicApi: FastifyPluginAsync;
  /** The Kratos admin API and, without SMTP, the development mailbox, as an encapsulated Fastify plugin. */
  adminApi: FastifyPluginAsync;
  /** Only the development mailbox (when identities live in Ory Kratos), as an encapsulated Fastify plugin. */
  mailbox: FastifyPluginAsync;
  /**
   * Makes Kratos' envelope the answer of a whole listener: a 404 for the paths no route serves, and the error handler
   * for the routes without one of their own (the web app, health, metrics). This is the listener's business, not a
   * plugin's: Fastify keeps one not-found handler per path prefix, and a handler set inside a plugin would not reach
   * the routes beside it, whose errors the listener answers in Kratos' envelope as well
   * (docs/kratos-compatibility.md#the-error-envelope).
   */
  registerListenerErrorHandling(app: FastifyInstance): void;
  /** The public API's answers to make before the listener routes a request (whoami-before-routing.ts). */
  answerBeforeRouting: EarlyAnswerer;
  /** Starts background work (the courier). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createIdentityProvider(ctx: IdpContext): IdentityProvider {
  const { password } = ctx.config;
  const services: IdpServices = {
    ctx,
    passwords: createPasswordHasher({
      concurrency: password.hashConcurrency,
      queueLimit: password.hashQueueLimit,
      argon2: password.argon2,
    }),
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
    answerBeforeRouting: whoamiBeforeRouting(services),
    async publicApi(scope) {
      if (!scope.hasPlugin('@fastify/cookie')) throw new Error('The Kratos public API needs @fastify/cookie first.');
      scope.setErrorHandler(kratosErrorHandler(ctx));
      registerSelfServiceRoutes(scope, services);
      registerSessionRoutes(scope, services);
      registerSchemaRoutes(scope);
    },
    async adminApi(scope) {
      scope.setErrorHandler(kratosErrorHandler(ctx));
      registerAdminIdentityRoutes(scope, services);
      registerAdminRecoveryRoutes(scope, services);
      registerDevMailbox(scope, ctx);
    },
    async mailbox(scope) {
      scope.setErrorHandler(kratosErrorHandler(ctx));
      registerDevMailbox(scope, ctx);
    },
    registerListenerErrorHandling(app) {
      registerErrorHandling(app, ctx);
    },
    async start() {
      await courier.start();
    },
    async stop() {
      await courier.stop();
    },
  };
}
