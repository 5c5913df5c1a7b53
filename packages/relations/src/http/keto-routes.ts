import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RelationsDb } from '../tuples/tuple-repository.js';
import { allTuples, deleteTuples, insertTuple, listTuples } from '../tuples/tuple-repository.js';
import { checkTuple, DEFAULT_MAX_DEPTH } from '../tuples/check.js';
import {
  parseQuery,
  parseTuple,
  tupleJson,
  tupleQueryString,
  type RelationTuple,
  type TupleQuery,
} from '../tuples/tuple.js';
import { KetoError, badRequest, unknownNamespace } from './keto-error.js';
import { decodePageToken, encodePageToken } from './page-token.js';

export interface KetoRouteOptions {
  db: RelationsDb;
  namespaces: string[];
}

const QUERY_KEYS = new Set([
  'namespace',
  'object',
  'relation',
  'subject_id',
  'subject_set.namespace',
  'subject_set.object',
  'subject_set.relation',
]);

const single = (query: Record<string, unknown>, key: string): string | undefined => {
  const value = query[key];
  return Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined;
};

function flatQuery(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (typeof v === 'string') out[key] = v;
  }
  return out;
}

function send(reply: FastifyReply, status: number, body?: unknown) {
  void reply.code(status).header('Cache-Control', 'private, no-cache, no-store, must-revalidate');
  return body === undefined
    ? reply.send()
    : reply.header('Content-Type', 'application/json').send(JSON.stringify(body));
}

/**
 * The Keto read and write REST API (docs/kratos-compatibility.md#keto-relation-tuple-api), in its own scope with Keto's
 * error envelopes.
 */
export async function registerKetoRoutes(app: FastifyInstance, options: KetoRouteOptions): Promise<void> {
  const { db } = options;
  const known = new Set(options.namespaces);
  const requireNamespace = (namespace: string | undefined) => {
    if (namespace !== undefined && !known.has(namespace)) throw unknownNamespace(namespace);
  };
  const maxDepthOf = (query: Record<string, unknown>) => {
    const raw = single(query, 'max-depth');
    const depth = raw === undefined ? DEFAULT_MAX_DEPTH : Number(raw);
    if (!Number.isInteger(depth)) throw badRequest('max-depth must be an integer');
    return depth <= 0 || depth > DEFAULT_MAX_DEPTH ? DEFAULT_MAX_DEPTH : depth;
  };
  const check = async (tuple: RelationTuple, depth: number) =>
    known.has(tuple.namespace) && (await checkTuple(db, tuple, depth));

  await app.register(async (scope) => {
    scope.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
      // 503: the database is out of reach for now (logged once by the database layer).
      if (error.statusCode === 503) void reply.header('Retry-After', '5');
      const keto =
        error instanceof KetoError
          ? error
          : error.statusCode === 503
            ? new KetoError(503, 'The service is temporarily unavailable, please try again later')
            : error.statusCode && error.statusCode < 500
              ? new KetoError(
                  error.statusCode,
                  error.statusCode === 400 ? 'Unable to decode JSON payload' : error.message,
                )
              : undefined;
      if (!keto) request.log.error({ err: error }, 'relation store error');
      const answer =
        keto ?? new KetoError(500, 'An internal server error occurred, please contact the system administrator');
      return send(reply, answer.code, answer.toEnvelope());
    });

    scope.get('/relation-tuples', async (request, reply) => {
      const raw = request.query as Record<string, unknown>;
      const query = parseQuery(flatQuery(raw));
      requireNamespace(query.namespace);
      const sizeText = single(raw, 'page_size');
      const size = sizeText === undefined ? 100 : Number(sizeText);
      if (!Number.isInteger(size) || size < 1) throw badRequest('page_size must be a positive integer');
      const token = single(raw, 'page_token');
      const page = await listTuples(db, query, {
        size: Math.min(size, 1000),
        after: token ? decodePageToken(token) : undefined,
      });
      return send(reply, 200, {
        relation_tuples: page.tuples.map(tupleJson),
        next_page_token: page.last ? encodePageToken(page.last) : '',
      });
    });

    const checkFromQuery = async (raw: Record<string, unknown>) => check(parseTuple(flatQuery(raw)), maxDepthOf(raw));
    const checkFromBody = async (body: unknown, raw: Record<string, unknown>) =>
      check(parseTuple(body), maxDepthOf(raw));

    scope.get('/relation-tuples/check', async (request, reply) => {
      const allowed = await checkFromQuery(request.query as Record<string, unknown>);
      return send(reply, allowed ? 200 : 403, { allowed });
    });
    scope.post('/relation-tuples/check', async (request, reply) => {
      const allowed = await checkFromBody(request.body, request.query as Record<string, unknown>);
      return send(reply, allowed ? 200 : 403, { allowed });
    });
    scope.get('/relation-tuples/check/openapi', async (request, reply) =>
      send(reply, 200, { allowed: await checkFromQuery(request.query as Record<string, unknown>) }),
    );
    scope.post('/relation-tuples/check/openapi', async (request, reply) =>
      send(reply, 200, { allowed: await checkFromBody(request.body, request.query as Record<string, unknown>) }),
    );
    scope.post('/relation-tuples/batch/check', async (request, reply) => {
      const tuples = (request.body as { tuples?: unknown } | undefined)?.tuples;
      if (!Array.isArray(tuples)) throw badRequest('tuples is missing');
      if (tuples.length > 10) throw badRequest('too many tuples, at most 10 are allowed');
      const results = [];
      for (const raw of tuples) {
        try {
          results.push({ allowed: await check(parseTuple(raw), DEFAULT_MAX_DEPTH) });
        } catch (error) {
          results.push({ allowed: false, error: error instanceof Error ? error.message : 'error' });
        }
      }
      return send(reply, 200, { results });
    });

    scope.get('/namespaces', async (_request, reply) =>
      send(reply, 200, { namespaces: [...known].map((name) => ({ name })) }),
    );

    scope.put('/admin/relation-tuples', async (request, reply) => {
      const tuple = parseTuple(request.body);
      requireNamespace(tuple.namespace);
      await insertTuple(db, tuple);
      void reply.header('Location', `/relation-tuples?${tupleQueryString(tuple)}`);
      return send(reply, 201, tupleJson(tuple));
    });

    scope.delete('/admin/relation-tuples', async (request, reply) => {
      const raw = flatQuery(request.query);
      const extra = Object.keys(raw).filter((key) => !QUERY_KEYS.has(key));
      if (extra.length > 0) throw badRequest(`unknown query parameters: ${extra.join(', ')}`);
      const query: TupleQuery = parseQuery(raw);
      if (!query.namespace) throw badRequest('Namespace is required');
      requireNamespace(query.namespace);
      await deleteTuples(db, query);
      return send(reply, 204);
    });

    scope.patch('/admin/relation-tuples', async (request, reply) => {
      const deltas = request.body;
      if (!Array.isArray(deltas)) throw badRequest('Unable to decode JSON payload');
      const parsed = deltas.map((delta: { action?: unknown; relation_tuple?: unknown }) => {
        if (!delta || typeof delta !== 'object' || delta.relation_tuple === undefined)
          throw badRequest('relation_tuple is missing');
        if (delta.action !== 'insert' && delta.action !== 'delete')
          throw badRequest(`unknown action ${String(delta.action)}`);
        const tuple = parseTuple(delta.relation_tuple);
        requireNamespace(tuple.namespace);
        return { action: delta.action, tuple };
      });
      await db.transaction().execute(async (trx) => {
        for (const { action, tuple } of parsed) {
          if (action === 'insert') await insertTuple(trx, tuple);
          else await deleteTuples(trx, tuple);
        }
      });
      return send(reply, 204);
    });

    scope.get('/relation-tuples/expand', async (request, reply) => {
      const raw = flatQuery(request.query);
      if (!raw.namespace || raw.object === undefined || !raw.relation)
        throw badRequest('namespace, object and relation are required');
      requireNamespace(raw.namespace);
      const tuples = await allTuples(db, { namespace: raw.namespace, object: raw.object, relation: raw.relation });
      if (tuples.length === 0) throw new KetoError(404, 'The requested resource could not be found');
      return send(reply, 200, {
        type: 'union',
        tuple: {
          namespace: raw.namespace,
          object: raw.object,
          relation: raw.relation,
          subject_set: { namespace: raw.namespace, object: raw.object, relation: raw.relation },
        },
        children: tuples.map((tuple) => ({ type: 'leaf', tuple: tupleJson(tuple) })),
      });
    });
  });
}
