import client from 'prom-client';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { countMailsByStatus, type AuthEvent, type Db } from '@portaal/idp';

/**
 * Prometheus registry of the process: default Node metrics, HTTP request counts and durations, sign-ins by outcome,
 * the mail queue by state and whether the database answers (the alerts worth setting are in docs/operations.md).
 */
export function createMetrics() {
  const registry = new client.Registry();
  // The event loop's delay sampled every 100 ms instead of prom-client's 10: a timer every 10 ms woke an idle server
  // 100 times a second, and the lag worth an alert is far above 100 ms.
  client.collectDefaultMetrics({ register: registry, prefix: 'portaal_', eventLoopMonitoringPrecision: 100 });
  const requests = new client.Histogram({
    name: 'portaal_http_request_duration_seconds',
    help: 'Duration of HTTP requests by listener, route and status',
    labelNames: ['listener', 'route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  /** Counts one answer of the listener; the answers made before routing are counted here too. */
  const observer = (listener: 'public' | 'admin') => (route: string, method: string, status: number, seconds: number) =>
    requests.observe({ listener, route, method, status: String(status) }, seconds);

  function instrument(app: FastifyInstance, listener: 'public' | 'admin'): void {
    const observe = observer(listener);
    app.addHook('onResponse', async (request, reply) => {
      observe(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    });
  }

  const signIns = new client.Counter({
    name: 'portaal_sign_ins_total',
    help: 'Sign-in attempts by method and outcome (success, failure, locked)',
    labelNames: ['method', 'outcome'] as const,
    registers: [registry],
  });
  const countSignIn = (event: AuthEvent) => {
    if (event.type.startsWith('login.'))
      signIns.inc({ method: event.method, outcome: event.type.replace('login.', '') });
  };

  /** Gauges read from the database at each scrape; during an outage they are left out and `database_up` is 0. */
  function observeDatabase(db: Db): void {
    new client.Gauge({
      name: 'portaal_database_up',
      help: '1 when the database answers',
      registers: [registry],
      async collect() {
        this.set(
          await sql`select 1`.execute(db.kysely).then(
            () => 1,
            () => 0,
          ),
        );
      },
    });
    new client.Gauge({
      name: 'portaal_mails',
      help: 'Mails in the courier table by status (queued, sent, failed, abandoned)',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        const counts = await countMailsByStatus(db.kysely).catch(() => undefined);
        for (const [status, count] of Object.entries(counts ?? {})) this.set({ status }, count);
      },
    });
  }

  return { registry, instrument, observer, countSignIn, observeDatabase };
}
export type Metrics = ReturnType<typeof createMetrics>;
