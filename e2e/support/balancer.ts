import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small round-robin load balancer for tests: it sends each request to the next backend whose `/health/ready`
 * answered 200 at the last check (every 100 ms), as a load balancer with a readiness probe does.
 */
export async function startBalancer(
  backends: { publicUrl: string; adminUrl: string }[],
  /** A port chosen before the backends started, when they must know the address people use (PUBLIC_URL). */
  listenPort?: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const ready = new Set<number>(backends.map((_, index) => index));
  const probe = setInterval(() => {
    backends.forEach((backend, index) => {
      fetch(`${backend.adminUrl}/health/ready`, { signal: AbortSignal.timeout(1_000) })
        .then((answer) => (answer.ok ? ready.add(index) : ready.delete(index)))
        .catch(() => ready.delete(index));
    });
  }, 100);
  let next = 0;
  const server = http.createServer((request, response) => {
    const candidates = [...ready];
    const chosen = candidates[next++ % Math.max(candidates.length, 1)];
    if (chosen === undefined) {
      response.writeHead(503).end('no backend ready');
      return;
    }
    const upstream = new URL(backends[chosen]!.publicUrl);
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
        agent: false,
      },
      (answer) => {
        // Hop-by-hop headers stay with their hop: the backend's `Keep-Alive: timeout=72` would have clients keep
        // connections to the balancer that it closes after its own 5 s, and a request on one then fails.
        const { connection: _connection, 'keep-alive': _keepAlive, ...headers } = answer.headers;
        response.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(`backend failed: ${error.message}`);
    });
    request.pipe(forwarded);
  });
  // Without a port of the caller's: port 0, which the system gives as it binds (no other process can take it first).
  await new Promise<void>((resolve) => server.listen(listenPort ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(probe);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
