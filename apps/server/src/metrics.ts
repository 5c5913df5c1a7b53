import client from 'prom-client';
import type { FastifyInstance } from 'fastify';

/** Prometheus registry of the process: default Node metrics plus HTTP request counts and durations. */
export function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'portaal_' });
  const requests = new client.Histogram({
    name: 'portaal_http_request_duration_seconds',
    help: 'Duration of HTTP requests by listener, route and status',
    labelNames: ['listener', 'route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  function instrument(app: FastifyInstance, listener: 'public' | 'admin'): void {
    app.addHook('onResponse', async (request, reply) => {
      requests.observe(
        {
          listener,
          route: request.routeOptions.url ?? 'unmatched',
          method: request.method,
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
  }

  return { registry, instrument };
}
export type Metrics = ReturnType<typeof createMetrics>;
