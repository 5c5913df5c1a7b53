import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { kratosErrors } from '@portaal/idp';

/** Deeper than any real body (identity metadata, a Keto query); far from what overflows the stack. */
const MAX_JSON_DEPTH = 100;

/** Whether JSON text nests objects and arrays deeper than `limit`; brackets inside strings do not count. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i += 1; // a backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/** Whether a parsed query, body or parameter holds U+0000 in any string or key. */
export function holdsNul(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

const unreadable = (message: string, code: string) => Object.assign(new Error(message), { statusCode: 400, code });

/**
 * Input no handler should ever see, refused with a 400 before any route runs
 * (docs/security.md#38-request-bodies-are-validated):
 * - JSON nested deeper than MAX_JSON_DEPTH: a hundred thousand nested arrays fit in the body limit and parse, but
 *   overflow the stack where the value is later copied or stored (structuredClone, JSON.stringify). The depth is
 *   checked before Fastify's own parser, which still refuses `__proto__` and `constructor.prototype` keys.
 * - U+0000 anywhere in the query, the body or the path parameters: PostgreSQL cannot store it in text, so it would
 *   fail the query (a 500) where SQLite answers.
 */
export function guardRequestInput(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(unreadable(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`, 'FST_ERR_CTP_INVALID_JSON_BODY'));
      return;
    }
    parse(request, body as string, done);
  });
  app.addHook('preValidation', async (request) => {
    if (holdsNul(request.query) || holdsNul(request.params) || holdsNul(request.body))
      throw unreadable('The request holds a NUL character.', 'FST_ERR_VALIDATION');
  });
}

/**
 * The router's own refusals, made before any package's error handler runs (an undecodable URL, a path parameter over
 * Fastify's 100 characters), in the error envelope like every other refusal instead of Fastify's own shape.
 */
export function answerRouterRefusal(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const reason =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A part of the path is too long.' : 'The URL could not be read.';
  const refusal = kratosErrors.unreadableRequest(error.statusCode ?? 400, reason);
  void reply.code(refusal.code).type('application/json; charset=utf-8').send(JSON.stringify(refusal.toEnvelope()));
}
