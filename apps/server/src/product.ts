import type { FastifyBaseLogger } from 'fastify';
import {
  createIdentityProvider,
  enqueueMail,
  openDatabase,
  resealCredentials,
  systemClock,
  useCredentialKeys,
  type AuthEvent,
  type Db,
  type IdentityProvider,
} from '@portaal/idp';
import { createRelationStore, type RelationStore } from '@portaal/relations';
import {
  CatalogueError,
  createAccessReviewStore,
  createAuditLog,
  createLastSignIns,
  createCatalogueSource,
  createEmbeddedBackend,
  createImportStore,
  createInvitationStore,
  createMailThrottle,
  createCatalogueWrites,
  createOryBackend,
  type ApiContext,
  type AuditLog,
  type Backend,
  type CatalogueSource,
  type RateLimiter,
  organisationsInDatabase,
  signInAuditor,
  withOrganisationRecord,
} from '@portaal/users-api';
import { loadCatalogueFile } from './catalogue-load.js';
import type { ServerConfig } from './config.js';
import { migrateAll } from './migrate-all.js';

/** The product's parts on one database, without listeners: what both the server and the CLI work with. */
export interface Product {
  db: Db;
  idp: IdentityProvider;
  relations: RelationStore;
  catalogue: CatalogueSource;
  audit: AuditLog;
  backend: Backend;
  limiter: RateLimiter;
  apiContext: ApiContext;
  close(): Promise<void>;
}

export async function openProduct(
  config: ServerConfig,
  log: FastifyBaseLogger,
  onSignIn?: (event: AuthEvent) => void,
): Promise<Product> {
  const db = openDatabase(config.databaseUrl, log);
  useCredentialKeys(config.cipherSecrets);
  try {
    await migrateAll(db);
    // Rows from before sealing, or sealed under a key that a rotation put second, are sealed under the first now.
    const resealed = await resealCredentials(db.kysely);
    if (resealed > 0) log.info({ resealed }, 'credential secrets sealed under the first SECRETS_CIPHER key');
  } catch (error) {
    await db.close();
    throw error;
  }
  const relations = createRelationStore(db.kysely);
  const catalogue = createCatalogueSource(db.kysely);
  const audit = createAuditLog(db.kysely);
  const lastSignIns = createLastSignIns(db.kysely);
  const reviews = createAccessReviewStore(db.kysely);
  const imports = createImportStore(db.kysely);
  const auditSignIn = signInAuditor(organisationsInDatabase(db.kysely), audit, lastSignIns);
  const idp = createIdentityProvider({
    db,
    config: config.idp,
    clock: systemClock,
    log,
    events: async (event, trx) => {
      onSignIn?.(event);
      // A credential change brings its transaction; the entry is written in it (docs/architecture.md#the-audit-log).
      const auditor = trx
        ? signInAuditor(organisationsInDatabase(trx), createAuditLog(trx), createLastSignIns(trx))
        : auditSignIn;
      await auditor(event);
    },
  });
  const backend = config.ory
    ? await createOryBackend(config.ory, {
        mail: { send: async (mail) => void (await enqueueMail(db.kysely, systemClock, mail)) },
        audit,
        reviews,
        importRows: imports,
        catalogue: createCatalogueWrites(db.kysely),
      })
    : createEmbeddedBackend(idp.services, relations);
  const limiter: RateLimiter = {
    // The identity provider's failure throttle locks on the limit-th attempt; one more keeps `limit` allowed.
    allow: async (key, limit, windowMs) =>
      !(await idp.services.throttle.recordFailure(key, limit + 1, windowMs, windowMs)).locked,
  };
  const apiContext: ApiContext = {
    backend,
    catalogue,
    audit,
    lastSignIns,
    limiter,
    mailThrottle: createMailThrottle(db.kysely),
    invitations: createInvitationStore(db.kysely),
    reviews,
    imports,
    options: {
      publicUrl: config.idp.publicUrl,
      dashboardAllowlist: config.dashboardAllowlist,
      supportEmail: config.supportEmail,
      feedbackEmail: config.feedbackEmail,
      sidebarTitle: config.brand.title,
      sidebarDescription: config.brand.description,
      accessibilityStatementUrl: config.statements.accessibility,
      privacyStatementUrl: config.statements.privacy,
      registrationEnabled: config.idp.registrationEnabled,
      invitationMs: config.idp.lifespans.invitationMs,
      recoveryMs: config.idp.lifespans.codeMs,
      // Kratos has no idle timeout: with Ory, sessions end only at their lifespan.
      sessionIdleMs: config.ory ? undefined : config.idp.lifespans.sessionIdleMs,
      kratosHookSecret: config.oryWebhookSecret,
    },
  };
  return { db, idp, relations, catalogue, audit, backend, limiter, apiContext, close: () => db.close() };
}

/** `metadata_admin` of an account made for an organisation: that organisation is its home. */
export const homeRecord = (orgId: string) =>
  withOrganisationRecord(null, { home: orgId, joined: { [orgId]: new Date().toISOString() } });

/** Loads CATALOGUE_FILE when set; a bad file is reported in one line and the catalogue in force stays. */
export async function loadConfiguredCatalogue(
  product: Product,
  file: string | undefined,
  log: FastifyBaseLogger,
): Promise<void> {
  if (!file) return;
  try {
    const { catalogue } = await loadCatalogueFile(product, file);
    log.info(
      { organisations: catalogue.organisations.length, services: catalogue.services.length },
      'catalogue loaded',
    );
  } catch (error) {
    if (!(error instanceof CatalogueError)) throw error;
    log.error(`catalogus niet geladen, de vorige blijft gelden: ${error.message}`);
  }
}

/** Runs work against the product without listeners and closes it afterwards (CLI commands). */
export async function withProduct<T>(
  config: ServerConfig,
  log: FastifyBaseLogger,
  work: (product: Product) => Promise<T>,
): Promise<T> {
  const product = await openProduct(config, log);
  try {
    return await work(product);
  } finally {
    await product.close();
  }
}
