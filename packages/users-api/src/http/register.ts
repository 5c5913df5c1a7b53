import type { FastifyError, FastifyInstance } from 'fastify';
import type { EarlyAnswerer } from '@portaal/idp';
import compress from '@fastify/compress';
import { constants } from 'node:zlib';
import type { ApiContext } from '../context.js';
import { ApiError, errors, RetryLaterError } from '../api-error.js';
import { requestSchemaCompiler } from './request-schema.js';
import { registerSelfRoutes } from '../routes/self-routes.js';
import { registerUserRoutes } from '../routes/user-routes.js';
import { registerPermissionRoutes } from '../routes/permission-routes.js';
import { registerAuditRoutes } from '../routes/audit-routes.js';
import { registerAccessReviewRoutes } from '../routes/access-review-routes.js';
import { registerImportRoutes } from '../routes/import-routes.js';
import { registerProgrammeRoutes } from '../routes/programme-routes.js';
import { createImportWorker, type ImportWorker } from '../imports/import-worker.js';
import { registerOrganisationRoutes } from '../routes/organisation-routes.js';
import { registerAccountRoutes } from '../routes/account-routes.js';
import { registerForwardAuthRoutes } from '../routes/forward-auth-routes.js';
import { KRATOS_LOGIN_HOOK_PATH, registerKratosHookRoutes } from '../routes/kratos-hook-routes.js';
import { keptForwardAuthChecks } from '../forward-auth/kept-checks.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Calls made by another server rather than the portal's web app, so without its Origin: they prove themselves with a
 * shared secret instead (Kratos' login web_hook, routes/kratos-hook-routes.ts). Every other write needs the Origin.
 */
const SERVER_TO_SERVER = new Set([`/api${KRATOS_LOGIN_HOOK_PATH}`]);

/** Answers smaller than this go as they are: compressing them costs more than it saves. */
const COMPRESS_FROM_BYTES = 8 * 1024;

export interface UsersApiRegistered {
  /** The forward-auth checks to answer before the listener routes a request (forward-auth/kept-checks.ts). */
  answerBeforeRouting: EarlyAnswerer;
  /** Carries out started imports in the background, from the moment the app is ready until it closes. */
  imports: ImportWorker;
}

/**
 * Mounts the Users API at `/api`: no-store answers, an Origin check on writes, errors as envelopes, and large answers
 * (the list of an organisation's users) compressed, with brotli or gzip at their fastest levels.
 */
export async function registerUsersApi(app: FastifyInstance, ctx: ApiContext): Promise<UsersApiRegistered> {
  const forwardAuthChecks = keptForwardAuthChecks(ctx);
  const imports = createImportWorker(ctx, app.log);
  app.addHook('onReady', async () => imports.start());
  app.addHook('onClose', async () => imports.stop());
  await app.register(
    async (scope) => {
      await scope.register(compress, {
        threshold: COMPRESS_FROM_BYTES,
        encodings: ['br', 'gzip'],
        // The fastest levels: on a list of 10,000 people (6.6 MB) brotli's quality 1 takes a tenth of quality 4's
        // time for 6 % more bytes, and gzip's level 3 half of level 6's for 12 % more (bench/README.md).
        brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
        zlibOptions: { level: 3 },
      });
      // Route schemas are the request schemas of http/request-schema.ts, checked before the handler.
      scope.setValidatorCompiler(requestSchemaCompiler);
      scope.addHook('onRequest', async (request, reply) => {
        void reply.header('Cache-Control', 'no-store');
        if (
          !SAFE_METHODS.has(request.method) &&
          !SERVER_TO_SERVER.has(request.routeOptions.url ?? '') &&
          request.headers.origin !== ctx.options.publicUrl.origin
        )
          throw errors.badOrigin();
      });
      scope.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
        let answer: ApiError;
        if (error instanceof ApiError) {
          answer = error;
          if (error instanceof RetryLaterError) void reply.header('Retry-After', String(error.retryAfterSeconds));
        } else if (error.statusCode === 503) {
          // The database or the identity provider is out of reach for now (logged where it was noticed).
          answer = errors.unavailable();
          void reply.header('Retry-After', '5');
        } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
          answer = new ApiError(
            error.statusCode,
            'invalid_request',
            'The request could not be read.',
            'Het verzoek kon niet worden gelezen.',
          );
        } else {
          request.log.error({ err: error }, 'users api error');
          answer = new ApiError(
            500,
            'internal_error',
            'An internal server error occurred.',
            'Er ging iets mis op de server. Probeer het later nog eens.',
          );
        }
        return reply.code(answer.code).header('Cache-Control', 'no-store').send(answer.toEnvelope());
      });
      scope.setNotFoundHandler((_request, reply) => reply.code(404).send(errors.notFound().toEnvelope()));
      registerSelfRoutes(scope, ctx);
      registerUserRoutes(scope, ctx);
      registerPermissionRoutes(scope, ctx);
      registerAuditRoutes(scope, ctx);
      registerAccessReviewRoutes(scope, ctx);
      registerImportRoutes(scope, ctx, imports);
      registerOrganisationRoutes(scope, ctx);
      registerProgrammeRoutes(scope, ctx);
      registerAccountRoutes(scope, ctx);
      registerKratosHookRoutes(scope, ctx);
      registerForwardAuthRoutes(scope, ctx, forwardAuthChecks);
    },
    { prefix: '/api' },
  );
  return { answerBeforeRouting: forwardAuthChecks.answerer, imports };
}
