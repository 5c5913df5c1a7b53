import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy that forwards only the paths of one Ory API (say, Keto's write API) and answers 404 to the rest,
 * so that a test of the Ory adapter fails when an adapter calls the wrong one of the four URLs.
 */
export async function startRouteProxy(
  target: string,
  allowed: RegExp[],
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (!allowed.some((pattern) => pattern.test(path))) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { code: 404, status: 'Not Found', message: `not served by this API: ${path}` } }),
      );
      return;
    }
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(forwarded);
  });
  // Port 0: the system gives a free port as it binds, which no other test's process can take meanwhile.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
