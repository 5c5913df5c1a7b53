export { migrateUsersApi } from './db/migrate.js';
export { registerUsersApi } from './http/register.js';
export type { ApiContext, RateLimiter, UsersApiOptions } from './http/api-context.js';
export { createEmbeddedBackend } from './adapters/embedded-backend.js';
export { createOryBackend, type OryUrls } from './adapters/ory-backend.js';
export type { Backend, IdentityPort, RelationsPort, MailPort, Ports, UserIdentity } from './ports.js';
export { createAuditLog, type AuditLog, type AuditEntry } from './audit/audit-log.js';
export { createCatalogueSource, DEMO_CATALOGUE_FILE, type CatalogueSource } from './catalogue/catalogue-source.js';
export { CatalogueError, parseCatalogue, type Catalogue } from './catalogue/catalogue.js';
