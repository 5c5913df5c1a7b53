import type { IncomingHttpHeaders } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { sessionAal, type Db } from '@portaal/idp';
import { createRelationStore, migrateRelations } from '@portaal/relations';
import { createEmbeddedBackend } from '../adapters/embedded-backend.js';
import { createAuditLog } from '../audit/audit-log.js';
import { createLastSignIns } from '../audit/last-sign-ins.js';
import { createCatalogueSource, DEMO_CATALOGUE_FILE } from '../catalogue/catalogue-source.js';
import { migrateUsersApi } from '../db/migrate.js';
import type { AdminCaller, ApiContext } from '../context.js';
import type { RequestOrigin } from '../audit/audit-about.js';
import { ApiError } from '../api-error.js';
import { registerUsersApi } from '../http/register.js';
import { createInvitationStore } from '../invitations/invitation-store.js';
import { createAccessReviewStore } from '../reviews/access-review-store.js';
import { createImportStore } from '../imports/import-store.js';
import type { ImportWorker } from '../imports/import-worker.js';
import { createMailThrottle } from '../mail/mail-throttle.js';
import type { UserIdentity } from '../ports.js';
import { resolveCaller } from '../users/caller.js';
import { IDENTITY_TABLES, inProcessProvider, storedRows } from '../../../idp/src/test-provider.js';

// The Users API in-process, as its tests use it (docs/architecture.md#how-it-is-tested): the embedded backend on a
// migrated in-memory SQLite database with the demo catalogue, and the API mounted on Fastify for `inject`. Who is
// signed in is a test header read by the backend's `sessionOf`; everything else is the product's own code.

/** The id of the identity a request is made as. */
export const CALLER_HEADER = 'x-test-caller';
/** The session's authentication methods, comma-separated; password and app (aal2) unless a test says otherwise. */
export const METHODS_HEADER = 'x-test-methods';

export interface InProcessApi {
  db: Db;
  ctx: ApiContext;
  app: FastifyInstance;
  /** The import worker of this instance (imports/import-worker.ts). */
  imports: ImportWorker;
  publicUrl: URL;
  /** A person with a home organisation and these relations (the subject added). */
  person(email: string, home: string, relations: RelationWithoutSubject[]): Promise<UserIdentity>;
  /** The person as the Users API resolves them on each request, with what they hold now. */
  acting(user: UserIdentity, request: RequestOrigin): Promise<{ caller: AdminCaller; request: RequestOrigin }>;
  /** A call of the mounted API as this person, from the portal's origin. */
  call(
    as: UserIdentity | undefined,
    method: 'GET' | 'HEAD' | 'PUT' | 'PATCH' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
  ): ReturnType<FastifyInstance['inject']>;
  /**
   * Every stored row of identities, credentials, addresses, sessions, mail, tuples, invitations, the audit log,
   * reviews, imports and the catalogue.
   */
  stored(): Promise<Record<string, unknown[]>>;
  close(): Promise<void>;
}

interface RelationWithoutSubject {
  namespace: string;
  object: string;
  relation: string;
}

/** Kratos' authentication methods with their levels: a passkey is aal1, a security key aal2, as Kratos has them. */
const methodsOf = (names: string[]) =>
  names.map((method) => ({
    method,
    aal: ['totp', 'lookup_secret', 'webauthn'].includes(method) ? ('aal2' as const) : ('aal1' as const),
    completed_at: '2026-01-01T00:00:00.000Z',
  }));

const USERS_API_TABLES = [
  ...IDENTITY_TABLES,
  'relation_tuples',
  'organisation_invitations',
  'audit_log',
  'access_reviews',
  'access_review_items',
  'people_imports',
  'people_import_rows',
  'catalogue_organisations',
  'catalogue_data_roles',
  'catalogue_services',
  'catalogue_service_access',
  'catalogue_oidc_clients',
  'oidc_client_secrets',
];

export async function inProcessUsersApi(): Promise<InProcessApi> {
  const { db, provider, close } = await inProcessProvider(async ({ kysely }) => {
    await migrateRelations(kysely);
    await migrateUsersApi(kysely);
  });
  const { publicUrl } = provider.services.ctx.config;
  const catalogue = createCatalogueSource(db.kysely);
  await catalogue.loadFile(DEMO_CATALOGUE_FILE);
  const embedded = createEmbeddedBackend(provider.services, createRelationStore(db.kysely));
  const sessionOf = async (headers: IncomingHttpHeaders) => {
    const id = headers[CALLER_HEADER];
    const [identity] = typeof id === 'string' ? await embedded.identities.get([id]) : [];
    const named = headers[METHODS_HEADER];
    const methods = typeof named === 'string' ? named.split(',') : ['password', 'totp'];
    return identity ? { sessionId: 'test', aal: sessionAal(methodsOf(methods)), methods, identity } : undefined;
  };
  const ctx: ApiContext = {
    backend: { ...embedded, identities: { ...embedded.identities, sessionOf } },
    catalogue,
    audit: createAuditLog(db.kysely),
    lastSignIns: createLastSignIns(db.kysely),
    limiter: { allow: async () => true },
    mailThrottle: createMailThrottle(db.kysely),
    invitations: createInvitationStore(db.kysely),
    reviews: createAccessReviewStore(db.kysely),
    imports: createImportStore(db.kysely),
    options: {
      publicUrl,
      dashboardAllowlist: [],
      registrationEnabled: false,
      invitationMs: 259_200_000,
      recoveryMs: 900_000,
    },
  };
  const app = Fastify();
  const { imports } = await registerUsersApi(app, ctx);
  return {
    db,
    ctx,
    app,
    imports,
    publicUrl,
    async person(email, home, relations) {
      const user = await ctx.backend.identities.create(
        { email, name: { first: email.split('@')[0]!, last: 'Test' } },
        { home, joined: { [home]: '2026-01-01T00:00:00.000Z' } },
      );
      await ctx.backend.relations.patch({ insert: relations.map((r) => ({ ...r, subject_id: user.id })) });
      return user;
    },
    async acting(user, request) {
      const [identity] = await ctx.backend.identities.get([user.id]);
      const caller = await resolveCaller(
        { sessionId: 'test', aal: 'aal2', methods: ['password', 'totp'], identity: identity! },
        ctx.backend.relations,
        await ctx.catalogue.current(),
        [],
      );
      return { caller: caller as AdminCaller, request };
    },
    call: (as, method, url, payload) =>
      app.inject({
        method,
        url,
        headers: { ...(as ? { [CALLER_HEADER]: as.id } : {}), origin: publicUrl.origin },
        ...(payload ? { payload } : {}),
      }),
    stored: () => storedRows(db, USERS_API_TABLES),
    async close() {
      await app.close();
      await close();
    },
  };
}

/** The refusal a call ends with: the catalogue's error, or a failure of the test when it passes. */
export async function refusal(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}
