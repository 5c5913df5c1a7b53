import { httpErrorOf } from '../errors/known-errors.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdpContext } from '../context.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';
import { HashingBusyError } from '../credentials/password/password-hasher.js';
import { HttpError } from '../errors/herodot.js';
import { kratosErrors } from '../errors/kratos-errors.js';

/**
 * Every error leaves as a herodot envelope: our own HttpError as built, Fastify's own client errors (bad JSON,
 * wrong media type, body too large) with their status, a database out of reach as 503, anything else as a generic
 * 500 without internals.
 */
export function kratosErrorHandler(ctx: IdpContext) {
  return (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    let httpError: HttpError;
    const known = httpErrorOf(error);
    if (known) {
      httpError = known;
    } else if (isDatabaseUnavailable(error)) {
      // Logged once per outage by the database layer; the client may simply try again.
      httpError = kratosErrors.databaseUnavailable();
      void reply.header('Retry-After', '5');
    } else if (!(error instanceof HttpError) && isClientError(error.statusCode)) {
      httpError = kratosErrors.unreadableRequest(error.statusCode, clientReason(error));
    } else {
      ctx.log.error({ err: error, url: request.url, reqId: request.id }, 'unexpected error');
      httpError = kratosErrors.internalServerError();
    }
    if (httpError.id) void reply.header('Ory-Error-Id', httpError.id);
    void reply
      .code(httpError.code)
      .header('Content-Type', 'application/json')
      .header('Cache-Control', 'private, no-cache, no-store, must-revalidate');
    const body = JSON.stringify(httpError.toEnvelope());
    if (!(error instanceof HashingBusyError)) {
      void reply.send(body);
      return undefined;
    }
    // A refusal that comes at once invites a client that ignores Retry-After to ask again at once: held for a
    // moment, a crowd of such clients costs the event loop little and leaves the cores to the hashing it waits for.
    void reply.header('Retry-After', String(error.retryAfterSeconds));
    setTimeout(() => void reply.send(body), error.answerAfterMs);
    return reply;
  };
}

/** The error handler above for a whole instance, and Kratos' 404 for the paths no route of it serves. */
export function registerErrorHandling(app: FastifyInstance, ctx: IdpContext): void {
  app.setErrorHandler(kratosErrorHandler(ctx));
  app.setNotFoundHandler((_request, reply) => {
    const error = kratosErrors.routeNotFound();
    void reply.code(404).header('Content-Type', 'application/json').send(JSON.stringify(error.toEnvelope()));
  });
}

const isClientError = (status: unknown): status is number =>
  typeof status === 'number' && status >= 400 && status < 500;

function clientReason(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'The request media type is not supported; send application/json or application/x-www-form-urlencoded.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty but declared as JSON.';
    default:
      return error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? 'Unable to decode the request body as JSON.'
        : 'The request was malformed or contained invalid parameters.';
  }
}
