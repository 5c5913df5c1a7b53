import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '@portaal/idp';
import type { Metrics } from './metrics.js';

// Readiness answers within this: a database that takes longer (SQLite's write lock held by another process, a
// PostgreSQL connection gone silent) is not ready, and the load balancer should send elsewhere.
const READY_TIMEOUT_MS = 2_000;
const TOO_SLOW = new Error('the database did not answer in time');

function withinReadyTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(TOO_SLOW), READY_TIMEOUT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** `/health/alive`, `/health/ready` (database reachable) and `/metrics`, as Kratos serves them on its admin port. */
export function registerHealthRoutes(app: FastifyInstance, db: Db, metrics: Metrics, draining: () => boolean): void {
  app.get('/health/alive', async () => ({ status: 'ok' }));
  app.get('/health/ready', async (_request, reply) => {
    // Shutting down: the load balancer stops sending here while the requests under way finish.
    if (draining()) return reply.code(503).send({ errors: { shutdown: 'draining' } });
    // Reads may still work on a full disk; writes do not, so the process is not ready.
    const storage = db.storageFailure();
    if (storage) return reply.code(503).send({ errors: { storage } });
    try {
      await withinReadyTimeout(sql`select 1`.execute(db.kysely));
      return { status: 'ok' };
    } catch (error) {
      const reason = error === TOO_SLOW ? 'busy' : 'unreachable';
      return reply.code(503).send({ errors: { database: reason } });
    }
  });
  app.get('/metrics', async (_request, reply) => {
    void reply.header('Content-Type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
