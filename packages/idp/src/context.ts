import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/database.js';
import type { IdpConfig } from './config.js';
import type { Clock } from './clock.js';
import type { AuthEventListener } from './events.js';

/** What every module of the provider needs: storage, settings, time and a logger. */
export interface IdpContext {
  db: Db;
  config: IdpConfig;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Receives sign-in successes, failures and locks (the product's audit log). */
  events?: AuthEventListener;
}
