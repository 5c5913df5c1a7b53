import http from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { EarlyAnswer, EarlyAnswerer } from '@portaal/idp';

/** What the listener adds to every answer, early or routed: security headers, `Connection: close` while draining. */
export type ListenerHeaders = () => Record<string, string>;

/** Counts an early answer in the request metrics, as the routed ones are counted. */
export type ObserveAnswer = (route: string, method: string, status: number, seconds: number) => void;

/** Early answerers by the path they answer. */
export type EarlyAnswerers = ReadonlyMap<string, EarlyAnswerer['answer']>;

/** An early answer as it goes out: its head as name-value pairs and its body's bytes. */
interface Prepared {
  listener: Record<string, string>;
  head: string[];
  body: Buffer | undefined;
}

/**
 * Kept answers are sent again and again (whoami, forward-auth): their head and bytes are made once per answer and
 * per set of listener headers, not per request.
 */
const prepared = new WeakMap<EarlyAnswer, Prepared>();

function prepare(answer: EarlyAnswer, listener: Record<string, string>): Prepared {
  const known = prepared.get(answer);
  if (known?.listener === listener) return known;
  const body = Buffer.from(answer.body);
  const head = Object.entries({ ...listener, ...answer.headers, 'Content-Length': String(body.length) }).flat();
  // An empty Buffer would go out as a write of its own after the head (forward-auth's 200 has no body).
  const made = { listener, head, body: body.length > 0 ? body : undefined };
  prepared.set(answer, made);
  return made;
}

export const byPath = (...answerers: EarlyAnswerer[]): EarlyAnswerers =>
  new Map(answerers.map((answerer) => [answerer.path, answerer.answer]));

/**
 * A Fastify server factory whose server first asks the early answerer of the request's path (`early()`, set once the
 * identity provider exists; none with `IDENTITY_BACKEND=ory`) and hands the request to Fastify when there is none,
 * it answers nothing or it fails: a failing database then gets Fastify's answer (503 with Retry-After), never a half
 * answer. Requests for other paths go to Fastify at once. The server gets the timeouts Fastify gives its own.
 */
export function answeringBeforeRouting(
  early: () => EarlyAnswerers | undefined,
  listenerHeaders: ListenerHeaders,
  observe: ObserveAnswer,
): FastifyServerFactory {
  return (route, options) => {
    const server = http.createServer((request, response) => {
      const url = request.url ?? '';
      const question = url.indexOf('?');
      const answerer = early()?.get(question < 0 ? url : url.slice(0, question));
      if (!answerer) return route(request, response);
      const started = process.hrtime.bigint();
      answerer(request.method, url, request.headers).then(
        (answer) => {
          if (!answer) return route(request, response);
          const { head, body } = prepare(answer, listenerHeaders());
          response.writeHead(answer.status, head);
          response.end(body);
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
