import {
  accountLocks,
  authenticateHeaders,
  createRecoveryLink,
  deleteCredential,
  deleteIdentity,
  endSession,
  enqueueMail,
  findIdentity,
  findCredentialsOf,
  removeSecurityKeys,
  findIdentityIdByAddress,
  IdentityConflictError,
  IdentityNotFoundError,
  insertIdentity,
  liveSessionIds,
  normaliseEmail,
  revokeSessionsOfIdentity,
  sessionAal,
  unlockAccount,
  unchangedUntil,
  updateIdentity,
  type CredentialRecord,
  type DatabaseDialect,
  type DbExecutor,
  type IdentityRecord,
  type IdpServices,
  type Transaction,
} from '@portaal/idp';
import type { RelationStore, RelationTuple } from '@portaal/relations';
import { sql } from 'kysely';
import { createAuditLog } from '../audit/audit-log.js';
import { amongIds } from '../db/among-ids.js';
import { membersOf, peopleChangedSince, peopleMark, statusesOf } from './people-keys.js';
import { errors } from '../api-error.js';
import { ConflictError, type Backend, type IdentityPort, type Ports, type UserIdentity } from '../ports.js';
import { readOrganisationRecord, withOrganisationRecord } from '../users/organisation-record.js';
import { RESET_CREDENTIALS } from '../users/second-factor.js';
import { keysInConfig } from '../users/key-info.js';
import { createAccessReviewStore } from '../reviews/access-review-store.js';
import { createCatalogueWrites } from '../catalogue/catalogue-writes.js';
import { createImportStore } from '../imports/import-store.js';

const toUser = (identity: IdentityRecord, credentials: CredentialRecord[]): UserIdentity => ({
  id: identity.id,
  schema_id: identity.schemaId,
  state: identity.state,
  traits: {
    email: identity.traits.email,
    name: { first: identity.traits.name?.first ?? '', last: identity.traits.name?.last ?? '' },
  },
  created_at: identity.createdAt,
  credentials: credentials.map((c) => c.type).sort(),
  verified: identity.verifiableAddresses.some((a) => a.verified),
  organisationRecord: readOrganisationRecord(identity.metadataAdmin),
});

/**
 * The people with these ids, in that order, as the Users API shows them: three statements whatever their number
 * (identities with whether an address is verified, the types of their credentials, whether anyone is locked out),
 * and the accounts' locks read only when some lock is in force.
 */
async function usersOf(services: IdpServices, db: DbExecutor, ids: string[]): Promise<UserIdentity[]> {
  if (ids.length === 0) return [];
  const { dialect } = services.ctx.db;
  const now = services.ctx.clock.now().toISOString();
  const [rows, credentials, anyLock] = await Promise.all([
    db
      .selectFrom('identities as i')
      .select(['i.id', 'i.schema_id', 'i.state', 'i.traits', 'i.metadata_admin', 'i.created_at'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('identity_verifiable_addresses as a')
              .select('a.id')
              .whereRef('a.identity_id', '=', 'i.id')
              .where('a.verified', '=', 1),
          )
          .as('verified'),
      )
      .where(amongIds(dialect, 'i.id', ids))
      .execute(),
    db
      .selectFrom('identity_credentials')
      .select(['identity_id', 'type'])
      .where(amongIds(dialect, 'identity_id', ids))
      .execute(),
    db.selectFrom('throttles').select('key').where('locked_until', '>', now).limit(1).executeTakeFirst(),
  ]);
  const typesOf = new Map<string, string[]>();
  for (const { identity_id, type } of credentials) {
    const types = typesOf.get(identity_id);
    if (types) types.push(type);
    else typesOf.set(identity_id, [type]);
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const found = ids.flatMap((id) => byId.get(id) ?? []);
  const locks = anyLock ? await locksOf(services, db, found) : new Map<string, string>();
  return found.map((row) => {
    const traits = JSON.parse(row.traits) as { email: string; name?: { first?: string; last?: string } };
    const user: UserIdentity = {
      id: row.id,
      schema_id: row.schema_id,
      state: row.state,
      traits: { email: traits.email, name: { first: traits.name?.first ?? '', last: traits.name?.last ?? '' } },
      created_at: row.created_at,
      credentials: (typesOf.get(row.id) ?? []).sort(),
      verified: Boolean(row.verified),
      organisationRecord: readOrganisationRecord(row.metadata_admin ? JSON.parse(row.metadata_admin) : null),
    };
    const lockedUntil = locks.get(row.id);
    return lockedUntil ? { ...user, lockedUntil } : user;
  });
}

/** The tuples of these subjects in one statement, whatever their number. */
async function tuplesOf(dialect: DatabaseDialect, db: DbExecutor, ids: string[]): Promise<RelationTuple[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<RelationTuple & { subject_id: string }>`
    select namespace, object, relation, subject_id from relation_tuples
    where ${amongIds(dialect, 'subject_id', ids)} and subject_set_namespace = ''
    order by id`.execute(db);
  return rows.map(({ namespace, object, relation, subject_id }) => ({ namespace, object, relation, subject_id }));
}

/** The sign-in locks in force of these members, read only when some lock is in force at all. */
async function locksInForce(services: IdpServices, db: DbExecutor, members: { id: string; email: string }[]) {
  const now = services.ctx.clock.now().toISOString();
  const locks = new Map<string, string>();
  const anyLock = await db
    .selectFrom('throttles')
    .select('key')
    .where('locked_until', '>', now)
    .limit(1)
    .executeTakeFirst();
  if (!anyLock) return locks;
  for (let start = 0; start < members.length; start += 1000) {
    for (const [id, until] of await accountLocks(services, db, members.slice(start, start + 1000)))
      locks.set(id, until);
  }
  return locks;
}

/** The locks of these accounts, asked in bounded lists (two keys per account; PostgreSQL allows 65,535). */
async function locksOf(services: IdpServices, db: DbExecutor, identities: { id: string; traits: string }[]) {
  const locks = new Map<string, string>();
  for (let start = 0; start < identities.length; start += 1000) {
    const chunk = identities.slice(start, start + 1000).map(({ id, traits }) => ({
      id,
      email: (JSON.parse(traits) as { email: string }).email,
    }));
    for (const [id, until] of await accountLocks(services, db, chunk)) locks.set(id, until);
  }
  return locks;
}

const conflicts = (error: unknown) => error instanceof IdentityConflictError;

/**
 * Runs writes that belong together: in the transaction of `atomically`, or else in one of their own
 * (docs/architecture.md#writes-that-belong-together).
 */
type Together = <T>(work: (trx: Transaction) => Promise<T>) => Promise<T>;

function identityPort(services: IdpServices, db: DbExecutor, together: Together): IdentityPort {
  const { clock } = services.ctx;
  const one = async (id: string) => {
    const [user] = await usersOf(services, db, [id]);
    if (!user) throw errors.notMember();
    return user;
  };
  return {
    async sessionOf(headers) {
      const auth = await authenticateHeaders(services, headers);
      if (!auth) return undefined;
      return {
        sessionId: auth.session.id,
        aal: sessionAal(auth.session.methods),
        methods: auth.session.methods.map((m) => m.method),
        authenticatedAt: auth.session.authenticatedAt,
        identity: toUser(auth.identity, auth.credentials),
        unchangedUntil: unchangedUntil(auth, services.ctx.config.lifespans.sessionIdleMs),
      };
    },
    get: (ids) => usersOf(services, db, ids),
    async findByEmail(email) {
      const id = await findIdentityIdByAddress(db, normaliseEmail(email));
      return id ? (await usersOf(services, db, [id]))[0] : undefined;
    },
    async create(traits, organisationRecord = {}) {
      try {
        const metadataAdmin = withOrganisationRecord(null, organisationRecord);
        return await one(await together((trx) => insertIdentity(trx, clock, { traits, metadataAdmin })));
      } catch (error) {
        if (conflicts(error)) throw new ConflictError('email in use');
        throw error;
      }
    },
    async update(id, changes) {
      try {
        await together(async (trx) => {
          await updateIdentity(trx, clock, id, changes);
          if (changes.state === 'inactive') await revokeSessionsOfIdentity(trx, id);
        });
      } catch (error) {
        if (conflicts(error)) throw new ConflictError('email in use');
        if (error instanceof IdentityNotFoundError) throw errors.notMember();
        throw error;
      }
      return one(id);
    },
    async setOrganisationRecord(id, record) {
      await together(async (trx) => {
        const identity = await findIdentity(trx, id);
        if (!identity) throw errors.notMember();
        const metadataAdmin = withOrganisationRecord(identity.metadataAdmin, record);
        await updateIdentity(trx, clock, id, { metadataAdmin });
      });
    },
    async delete(id) {
      await together((trx) => deleteIdentity(trx, id));
    },
    async removeSecondFactors(id) {
      // Security keys as Kratos' admin API removes them: keys for passwordless sign-in stay.
      await together(async (trx) => {
        for (const type of RESET_CREDENTIALS) {
          if (type === 'webauthn') await removeSecurityKeys(trx, clock, id);
          else await deleteCredential(trx, clock, id, type);
        }
      });
    },
    async keysOf(id) {
      const credentials = (await findCredentialsOf(db, [id])).get(id) ?? [];
      return credentials.flatMap((credential) => keysInConfig(credential.type, credential.config));
    },
    async revokeSessions(id) {
      await revokeSessionsOfIdentity(db, id);
    },
    liveSessions: (ids) => liveSessionIds(services, ids),
    endSession: (id) => endSession(services, id),
    async unlock(id) {
      const identity = await findIdentity(db, id);
      if (identity) await unlockAccount(services, identity);
      return true;
    },
    async recoveryLink(id, lifespanMs) {
      const identity = await findIdentity(db, id);
      if (!identity) throw errors.notMember();
      return (await createRecoveryLink(services, identity, lifespanMs)).recovery_link;
    },
  };
}

function portsOn(services: IdpServices, relations: RelationStore, db: DbExecutor, together: Together): Ports {
  const audit = createAuditLog(db);
  return {
    identities: identityPort(services, db, together),
    relations: { list: (query) => relations.list(query), patch: (changes) => relations.patch(changes) },
    mail: { send: async (mail) => void (await enqueueMail(db, services.ctx.clock, mail)) },
    audit: { record: (entry) => audit.record(entry) },
    reviews: createAccessReviewStore(db),
    importRows: createImportStore(db),
    catalogue: createCatalogueWrites(db),
  };
}

/**
 * The in-process backend: the embedded identity provider, the tuple store and the audit log on the same database,
 * so that `atomically` writes identity, tuples, mail and the audit entry in one transaction.
 */
export function createEmbeddedBackend(services: IdpServices, relations: RelationStore): Backend {
  const db = services.ctx.db.kysely;
  const own: Together = (work) => db.transaction().execute(work);
  return {
    ...portsOn(services, relations, db, own),
    compensates: false,
    changeMark: () => services.ctx.db.changeMark(),
    peopleMark: () => peopleMark(db),
    peopleChangedSince: (from, to) => peopleChangedSince(db, from, to),
    membersOf: (organisationId, ids) => membersOf(services.ctx.db.dialect, db, organisationId, ids),
    tuplesOf: (ids) => tuplesOf(services.ctx.db.dialect, db, ids),
    statusesOf: (organisationId, among) => statusesOf(services.ctx.db.dialect, db, organisationId, among),
    locksOf: (members) => locksInForce(services, db, members),
    atomically: (work) =>
      db.transaction().execute((trx) => work(portsOn(services, relations.within(trx), trx, (inner) => inner(trx)))),
  };
}
