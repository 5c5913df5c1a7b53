import type { FastifyRequest } from 'fastify';
import {
  accountLocks,
  authenticate,
  createRecoveryLink,
  deleteCredential,
  deleteIdentity,
  enqueueMail,
  findCredentialsOf,
  findIdentities,
  findIdentity,
  findIdentityIdByAddress,
  HttpError,
  insertIdentity,
  normaliseEmail,
  revokeSessionsOfIdentity,
  sessionAal,
  unlockAccount,
  updateIdentity,
  type CredentialRecord,
  type DbExecutor,
  type IdentityRecord,
  type IdpServices,
} from '@portaal/idp';
import type { RelationStore } from '@portaal/relations';
import { ConflictError, type Backend, type IdentityPort, type Ports, type UserIdentity } from '../ports.js';
import { readOrganisationRecord, withOrganisationRecord } from '../users/organisation-record.js';

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

async function usersOf(services: IdpServices, db: DbExecutor, ids: string[]): Promise<UserIdentity[]> {
  if (ids.length === 0) return [];
  const users: UserIdentity[] = [];
  // Bounded IN lists: SQLite allows at most 32,766 parameters and PostgreSQL 65,535.
  for (let start = 0; start < ids.length; start += 1000) {
    const chunk = ids.slice(start, start + 1000);
    const [identities, credentials] = await Promise.all([findIdentities(db, chunk), findCredentialsOf(db, chunk)]);
    const locks = await accountLocks(
      services,
      db,
      identities.map((identity) => ({ id: identity.id, email: identity.traits.email })),
    );
    for (const identity of identities) {
      const user = toUser(identity, credentials.get(identity.id) ?? []);
      const lockedUntil = locks.get(identity.id);
      users.push(lockedUntil ? { ...user, lockedUntil } : user);
    }
  }
  return users;
}

const conflicts = (error: unknown) => error instanceof HttpError && error.code === 409;

function identityPort(services: IdpServices, db: DbExecutor): IdentityPort {
  const { clock } = services.ctx;
  const one = async (id: string) => {
    const [user] = await usersOf(services, db, [id]);
    if (!user) throw new HttpError({ code: 404, reason: 'identity not found' });
    return user;
  };
  return {
    async sessionOf(request: FastifyRequest) {
      const auth = await authenticate(services, request);
      if (!auth) return undefined;
      return {
        sessionId: auth.session.id,
        aal: sessionAal(auth.session.methods),
        identity: toUser(auth.identity, auth.credentials),
      };
    },
    get: (ids) => usersOf(services, db, ids),
    async findByEmail(email) {
      const id = await findIdentityIdByAddress(db, normaliseEmail(email));
      return id ? (await usersOf(services, db, [id]))[0] : undefined;
    },
    async create(traits, organisationRecord = {}) {
      try {
        return await one(
          await insertIdentity(db, clock, { traits, metadataAdmin: withOrganisationRecord(null, organisationRecord) }),
        );
      } catch (error) {
        if (conflicts(error)) throw new ConflictError('email in use');
        throw error;
      }
    },
    async update(id, changes) {
      try {
        await updateIdentity(db, clock, id, changes);
      } catch (error) {
        if (conflicts(error)) throw new ConflictError('email in use');
        throw error;
      }
      if (changes.state === 'inactive') await revokeSessionsOfIdentity(db, id);
      return one(id);
    },
    async setOrganisationRecord(id, record) {
      const identity = await findIdentity(db, id);
      if (!identity) throw new HttpError({ code: 404, reason: 'identity not found' });
      await updateIdentity(db, clock, id, { metadataAdmin: withOrganisationRecord(identity.metadataAdmin, record) });
    },
    async delete(id) {
      await deleteIdentity(db, id);
    },
    async removeSecondFactors(id) {
      await deleteCredential(db, clock, id, 'totp');
      await deleteCredential(db, clock, id, 'lookup_secret');
    },
    async revokeSessions(id) {
      await revokeSessionsOfIdentity(db, id);
    },
    async unlock(id) {
      const identity = await findIdentity(db, id);
      if (identity) await unlockAccount(services, identity);
      return true;
    },
    async recoveryLink(id, lifespanMs) {
      const identity = await findIdentity(db, id);
      if (!identity) throw new HttpError({ code: 404, reason: 'identity not found' });
      return (await createRecoveryLink(services, identity, lifespanMs)).recovery_link;
    },
  };
}

function portsOn(services: IdpServices, relations: RelationStore, db: DbExecutor): Ports {
  return {
    identities: identityPort(services, db),
    relations: { list: (query) => relations.list(query), patch: (changes) => relations.patch(changes) },
    mail: { send: async (mail) => void (await enqueueMail(db, services.ctx.clock, mail)) },
  };
}

/** The in-process backend: the embedded identity provider and tuple store on the same database. */
export function createEmbeddedBackend(services: IdpServices, relations: RelationStore): Backend {
  const db = services.ctx.db.kysely;
  return {
    ...portsOn(services, relations, db),
    compensates: false,
    atomically: (work) => db.transaction().execute((trx) => work(portsOn(services, relations.within(trx), trx))),
  };
}
