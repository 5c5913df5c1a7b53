import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import type { ApiError } from '../api-error.js';

/**
 * The schema a route declares for its params, query string or body (Fastify's `schema` option): a zod schema and
 * the catalogue's refusal for input it does not accept. Fastify checks it before the handler runs, after the
 * caller's guard (http/guards.ts), and hands the handler the parsed value (trimmed, lower-cased where the schema
 * says so). Zod rather than JSON Schema, because the input rules normalise as they check (e-mail addresses, names
 * without hidden characters) and each refusal keeps the Dutch message the portal's forms show.
 */
// Zod's own words for a refusal without a message of the schema (a missing or mistyped field), in Dutch as the rest.
const DUTCH = { error: z.locales.nl().localeError };

export class RequestSchema<T> {
  constructor(
    readonly schema: z.ZodType<T>,
    private readonly refuse: (issue: z.ZodError['issues'][number]) => ApiError,
    /** What an absent part counts as: nothing for a body, no fields for a query string. */
    private readonly absent: undefined | Record<string, never> = undefined,
  ) {}

  check(input: unknown): { value: T } | { error: ApiError } {
    // Fastify hands an absent part over as null: no body, or no query string at all.
    const result = this.schema.safeParse(input ?? this.absent, DUTCH);
    return result.success ? { value: result.data } : { error: this.refuse(result.error.issues[0]!) };
  }
}

/** The validator compiler of the Users API's scope: every route schema there is a `RequestSchema`. */
export const requestSchemaCompiler: FastifySchemaCompiler<RequestSchema<unknown>> =
  ({ schema }) =>
  (input) =>
    schema.check(input);

/** What a route's declared schemas made of the request, typed by the schemas themselves. */
export function checked<P = unknown, Q = unknown, B = unknown>(
  request: FastifyRequest,
  _schemas: { params?: RequestSchema<P>; querystring?: RequestSchema<Q>; body?: RequestSchema<B> },
): { params: P; query: Q; body: B } {
  return { params: request.params as P, query: request.query as Q, body: request.body as B };
}
