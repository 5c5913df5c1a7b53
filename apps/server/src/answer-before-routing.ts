import http from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { EarlyAnswerer } from '@portaal/idp';

/** What the listener adds to every answer, early or routed: security headers, `Connection: close` while draining. */
export type ListenerHeaders = () => Record<string, string>;

/** Counts an early answer in the request metrics, as the routed ones are counted. */
export type ObserveAnswer = (route: string, method: string, status: number, seconds: number) => void;

/**
 * A Fastify server factory whose server first asks `early()` (set once the identity provider exists; none with
 * `IDENTITY_BACKEND=ory`) and hands the request to Fastify when it answers nothing or fails: a failing database
 * then gets Fastify's answer (503 with Retry-After), never a half answer. The server gets the timeouts Fastify gives
 * its own.
 */
export function answeringBeforeRouting(
  early: () => EarlyAnswerer | undefined,
  listenerHeaders: ListenerHeaders,
  observe: ObserveAnswer,
): FastifyServerFactory {
  return (route, options) => {
    const server = http.createServer((request, response) => {
      const answerer = early();
      if (!answerer) return route(request, response);
      const started = process.hrtime.bigint();
      answerer(request.method, request.url, request.headers).then(
        (answer) => {
          if (!answer) return route(request, response);
          const body = Buffer.from(answer.body);
          response.writeHead(answer.status, {
            ...listenerHeaders(),
            ...answer.headers,
            'Content-Length': String(body.length),
          });
          // An empty Buffer would go out as a write of its own after the head (forward-auth's 200 has no body).
          response.end(body.length > 0 ? body : undefined);
          observe(answer.route, request.method ?? '', answer.status, Number(process.hrtime.bigint() - started) / 1e9);
        },
        () => route(request, response),
      );
    });
    server.keepAliveTimeout = Number(options.keepAliveTimeout ?? 72_000);
    server.requestTimeout = Number(options.requestTimeout ?? 0);
    server.setTimeout(Number(options.connectionTimeout ?? 0));
    return server;
  };
}

/** The first answer of several answerers, each of which answers its own paths only. */
export const firstEarlyAnswer =
  (...answerers: EarlyAnswerer[]): EarlyAnswerer =>
  async (method, url, headers) => {
    for (const answerer of answerers) {
      const answer = await answerer(method, url, headers);
      if (answer) return answer;
    }
    return undefined;
  };
