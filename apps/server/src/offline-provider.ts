import Fastify from 'fastify';
import { createIdentityProvider, openDatabase, systemClock, type IdentityProvider } from '@portaal/idp';
import { migrateAll } from './migrate-all.js';
import type { ServerConfig } from './config.js';

/** The provider without listeners, for CLI commands that change data; closes the database afterwards. */
export async function withOfflineProvider<T>(config: ServerConfig, work: (idp: IdentityProvider) => Promise<T>): Promise<T> {
  const db = openDatabase(config.databaseUrl);
  try {
    await migrateAll(db);
    const log = Fastify({ logger: { level: 'warn' } }).log;
    return await work(createIdentityProvider({ db, config: config.idp, clock: systemClock, log }));
  } finally {
    await db.close();
  }
}
