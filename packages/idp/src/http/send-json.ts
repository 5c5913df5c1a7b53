import type { FastifyReply } from 'fastify';

export const NO_CACHE = 'private, no-cache, no-store, must-revalidate';

export const sendJson = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  sendJsonText(reply, status, JSON.stringify(body));

/** As sendJson, with the body serialised already. */
export function sendJsonText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).headers(JSON_HEADERS).send(text);
}

/** The headers of every JSON answer of the Kratos API: never cached (docs/kratos-compatibility.md). */
export const JSON_HEADERS = { 'Cache-Control': NO_CACHE, 'Content-Type': 'application/json; charset=utf-8' } as const;
