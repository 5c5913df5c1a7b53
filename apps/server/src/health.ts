import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '@portaal/idp';
import type { Metrics } from './metrics.js';

/** `/health/alive`, `/health/ready` (database reachable) and `/metrics`, as Kratos serves them on its admin port. */
export function registerHealthRoutes(app: FastifyInstance, db: Db, metrics: Metrics, draining: () => boolean): void {
  app.get('/health/alive', async () => ({ status: 'ok' }));
  app.get('/health/ready', async (_request, reply) => {
    // Shutting down: the load balancer stops sending here while the requests under way finish.
    if (draining()) return reply.code(503).send({ errors: { shutdown: 'draining' } });
    try {
      await sql`select 1`.execute(db.kysely);
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ errors: { database: 'unreachable' } });
    }
  });
  app.get('/metrics', async (_request, reply) => {
    void reply.header('Content-Type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
