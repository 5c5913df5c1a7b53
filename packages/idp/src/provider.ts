import type { FastifyInstance } from 'fastify';
import type { IdpContext } from './context.js';
import { registerErrorHandling } from './http/error-handler.js';

export interface IdentityProvider {
  /** Registers the Kratos public API routes (self-service, sessions, schemas). */
  registerPublicRoutes(app: FastifyInstance): Promise<void>;
  /** Registers the Kratos admin API routes. */
  registerAdminRoutes(app: FastifyInstance): Promise<void>;
  /** Starts background work (the courier); resolves once it is running. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createIdentityProvider(ctx: IdpContext): IdentityProvider {
  return {
    async registerPublicRoutes(app) {
      registerErrorHandling(app, ctx);
    },
    async registerAdminRoutes(app) {
      registerErrorHandling(app, ctx);
    },
    async start() {},
    async stop() {},
  };
}
