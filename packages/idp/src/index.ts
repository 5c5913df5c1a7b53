export type { IdpConfig } from './config.js';
export { UI_PATHS } from './config.js';
export type { IdpContext } from './context.js';
export { systemClock, type Clock } from './clock.js';
export { openDatabase, type Db, type DatabaseDialect } from './db/database.js';
export { migrateToLatest } from './db/migrate.js';
export { HttpError } from './errors/herodot.js';
export { parseDuration } from './duration.js';
export { createIdentityProvider, type IdentityProvider } from './provider.js';
