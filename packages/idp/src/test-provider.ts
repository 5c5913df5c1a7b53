import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { openDatabase, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createIdentityProvider, type IdentityProvider } from './provider.js';
import { insertSession } from './sessions/session-repository.js';
import { testIdpConfig } from './test-config.js';

// The identity provider in-process, as its tests and the Users API's in-process tests use it: a migrated in-memory
// SQLite database, the test configuration and the system clock, its Fastify plugins behind Fastify's inject.

export interface InProcessProvider {
  db: Db;
  provider: IdentityProvider;
  /** A listener as the server builds it: cookies, the listener's error handling, then the plugin. */
  listener(
    plugin: 'publicApi' | 'adminApi' | 'mailbox',
    options?: { listenerErrors: boolean; beside?: (app: FastifyInstance) => void },
  ): Promise<FastifyInstance>;
  /** Closes the listeners made and the database. */
  close(): Promise<void>;
}

/** `migrate` adds other packages' tables to the same database (the Users API's tests). */
export async function inProcessProvider(migrate?: (db: Db) => Promise<void>): Promise<InProcessProvider> {
  const db = openDatabase(':memory:');
  await migrateToLatest(db);
  if (migrate) await migrate(db);
  const provider = createIdentityProvider({
    db,
    config: testIdpConfig(),
    clock: { now: () => new Date() },
    log: Fastify().log,
  });
  const apps: FastifyInstance[] = [];
  return {
    db,
    provider,
    async listener(plugin, options = { listenerErrors: true }) {
      const app = Fastify();
      apps.push(app);
      await app.register(cookie);
      if (options.listenerErrors) provider.registerListenerErrorHandling(app);
      await app.register(provider[plugin]);
      options.beside?.(app);
      return app;
    },
    async close() {
      for (const app of apps) await app.close();
      await db.close();
    },
  };
}

/** The tables that hold a person: what a refused request must leave exactly as it was. */
export const IDENTITY_TABLES = [
  'identities',
  'identity_credentials',
  'identity_credential_identifiers',
  'identity_verifiable_addresses',
  'identity_recovery_addresses',
  'sessions',
  'courier_messages',
] as const;

/** Every row of these tables, each table's rows in one fixed order, to compare the whole stored state. */
export async function storedRows(db: Db, tables: readonly string[]): Promise<Record<string, unknown[]>> {
  const stored: Record<string, unknown[]> = {};
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely);
    stored[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return stored;
}

/** A session of `identityId`, signed in with a password a moment ago, for an hour: its record and token. */
export function passwordSession({ db, provider }: InProcessProvider, identityId: string) {
  const method = { method: 'password', aal: 'aal1', completed_at: new Date().toISOString() } as const;
  return insertSession(db.kysely, provider.services.ctx.clock, {
    identityId,
    methods: [method],
    lifespanMs: 3_600_000,
    ipAddress: '192.0.2.1',
    userAgent: 'test',
  });
}
