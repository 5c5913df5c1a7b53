import Fastify, { LogController, type FastifyInstance, type FastifyServerFactory } from 'fastify';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import type { Db, IdentityProvider } from '@portaal/idp';
import {
  createOidcProvider,
  endGrantsOfEndedSessions,
  oidcIssuer,
  registerOidcProvider,
  registerUsersApi,
  sessionLinks,
  signingKeyAgreement,
  startSingleLogout,
} from '@portaal/users-api';
import { PRODUCT_NAMESPACES, registerKetoRoutes } from '@portaal/relations';
import { openProduct, type Product } from './product.js';
import type { ServerConfig } from './config.js';
import { createMetrics } from './metrics.js';
import { registerHealthRoutes } from './health.js';
import { registerWebApp } from './web-app.js';
import { pruneAuditDaily } from './audit-retention.js';
import { answerRouterRefusal, guardRequestInput } from './request-input.js';
import { oidcSigningKeys, signingKeyIds } from './oidc-settings.js';
import { requireAdminToken } from './admin-token.js';
import { answeringBeforeRouting, byPath, type EarlyAnswerers } from './answer-before-routing.js';

export interface PortaalServer {
  product: Product;
  db: Db;
  idp: IdentityProvider;
  publicApp: FastifyInstance;
  adminApp: FastifyInstance;
  listen(): Promise<void>;
  close(): Promise<void>;
  /** Graceful stop: readiness 503 and `Connection: close` for the drain period, then `close`. */
  shutdown(): Promise<void>;
}

const BODY_LIMIT = 256 * 1024;

function createApp(
  config: ServerConfig,
  name: 'public' | 'admin',
  serverFactory?: FastifyServerFactory,
): FastifyInstance {
  const app = Fastify({
    serverFactory,
    logger: { level: config.logLevel, base: { listener: name } },
    bodyLimit: BODY_LIMIT,
    // Only the configured proxies' X-Forwarded-For counts; without any, the TCP peer is the client.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
    frameworkErrors: answerRouterRefusal,
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  });
  guardRequestInput(app);
  return app;
}

export async function createServer(config: ServerConfig): Promise<PortaalServer> {
  // Every answer, JSON included: no content sniffing; behind https, browsers stay on https for a year.
  const securityHeaders: Record<string, string> = { 'X-Content-Type-Options': 'nosniff' };
  if (config.idp.publicUrl.protocol === 'https:') {
    securityHeaders['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  }
  let draining = false;
  // While draining, clients on kept-alive connections are told to reconnect, so they reach another process.
  const publicHeaders = () => (draining ? { ...securityHeaders, Connection: 'close' } : securityHeaders);
  const metrics = createMetrics();
  let answerBeforeRouting: EarlyAnswerers | undefined;
  const publicApp = createApp(
    config,
    'public',
    answeringBeforeRouting(() => answerBeforeRouting, publicHeaders, metrics.observer('public')),
  );
  const adminApp = createApp(config, 'admin');
  requireAdminToken(adminApp, config.adminApiToken);
  const product = await openProduct(config, publicApp.log, metrics.countSignIn);
  const { db, idp } = product;
  metrics.observeDatabase(db);

  for (const [app, headers] of [
    [publicApp, publicHeaders],
    [adminApp, () => securityHeaders],
  ] as const) {
    await app.register(formbody, { bodyLimit: BODY_LIMIT });
    await app.register(cookie);
    app.addHook('onRequest', async (_request, reply) => {
      void reply.headers(headers());
    });
  }
  metrics.instrument(publicApp, 'public');
  metrics.instrument(adminApp, 'admin');

  // With IDENTITY_BACKEND=ory the portal serves only its own parts; Kratos and Keto answer the Ory APIs.
  const embedded = config.identityBackend === 'embedded';
  // Each package is an encapsulated plugin with its own error handler. What no package serves (unknown paths, the
  // web app's and health's errors) answers in Kratos' envelope on the admin listener, and on the public one when it
  // serves the Kratos API.
  if (embedded) {
    idp.registerListenerErrorHandling(publicApp);
    await publicApp.register(idp.publicApi);
  }
  const usersApi = await registerUsersApi(publicApp, product.apiContext);
  if (embedded) answerBeforeRouting = byPath(idp.answerBeforeRouting, usersApi.answerBeforeRouting);
  const oidcLinks = sessionLinks(db.kysely);
  const signingKeys = await oidcSigningKeys(config.oidc, config.dataDir);
  const keyAgreement = signingKeyAgreement(db.kysely, signingKeyIds(signingKeys), publicApp.log);
  const oidcProvider = await createOidcProvider(product.apiContext, db.kysely, oidcLinks, {
    issuer: oidcIssuer(config.idp.publicUrl),
    jwks: signingKeys as never,
    cookieSecret: config.idp.cookieSecret,
    clientSecrets: config.oidc.clientSecrets,
    sessionSeconds: Math.round(config.idp.lifespans.sessionMs / 1000),
    log: publicApp.log,
  });
  await registerOidcProvider(publicApp, product.apiContext, oidcProvider, oidcLinks, keyAgreement);
  const singleLogoutRound = () =>
    endGrantsOfEndedSessions(oidcProvider, product.apiContext.backend.identities, oidcLinks, publicApp.log);
  await registerWebApp(publicApp);
  idp.registerListenerErrorHandling(adminApp);
  if (embedded) {
    await adminApp.register(idp.adminApi);
    await registerKetoRoutes(adminApp, { db: db.kysely as never, namespaces: PRODUCT_NAMESPACES });
  } else {
    await adminApp.register(idp.mailbox);
  }
  registerHealthRoutes(adminApp, db, metrics, () => draining);

  let stopPruning = () => {};
  let stopSingleLogout = async () => {};
  let stopKeyAgreement = async () => {};

  async function close() {
    stopPruning();
    await stopSingleLogout();
    await stopKeyAgreement();
    // Listeners first: requests under way finish, idle connections close; then the courier's current mail.
    await publicApp.close();
    await adminApp.close();
    await idp.stop();
    await product.close();
  }

  return {
    product,
    db,
    idp,
    publicApp,
    adminApp,
    async listen() {
      await keyAgreement.announce();
      await publicApp.listen({ host: config.host, port: config.port });
      await adminApp.listen({ host: config.adminHost, port: config.adminPort });
      await idp.start();
      stopPruning = pruneAuditDaily(
        { audit: product.audit, imports: product.apiContext.imports },
        config.auditRetentionMs,
        publicApp.log,
      );
      stopSingleLogout = startSingleLogout(singleLogoutRound, publicApp.log);
      stopKeyAgreement = keyAgreement.start();
    },
    close,
    async shutdown() {
      draining = true;
      publicApp.log.info({ drainMs: config.shutdown.drainMs }, 'shutting down: not ready, draining');
      await new Promise((resolve) => setTimeout(resolve, config.shutdown.drainMs));
      await close();
    },
  };
}
