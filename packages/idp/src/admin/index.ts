import type { FastifyInstance } from 'fastify';
import type { IdpServices } from '../services.js';
import { registerCredentialRoutes } from './credential-routes.js';
import { registerIdentityReads } from './identity-reads.js';
import { registerIdentityWrites } from './identity-writes.js';
import { registerAdminSessionRoutes } from './session-routes.js';

export { registerSchemaRoutes } from './schemas.js';

/** The Kratos admin identity and session API on the admin listener. */
export function registerAdminIdentityRoutes(app: FastifyInstance, services: IdpServices): void {
  registerIdentityReads(app, services);
  registerIdentityWrites(app, services);
  registerCredentialRoutes(app, services);
  registerAdminSessionRoutes(app, services);
}
