import crypto from 'node:crypto';
import type { Identity, Relationship } from '@ory/client';
import type { RelationTuple, TupleQuery } from '@portaal/relations';
import {
  ConflictError,
  type Backend,
  type IdentityPort,
  type Ports,
  type RelationsPort,
  type UserIdentity,
} from '../ports.js';
import { readOrganisationRecord, withOrganisationRecord } from '../users/organisation-record.js';
import { RESET_CREDENTIALS } from '../users/second-factor.js';
import { keysInConfig } from '../users/key-info.js';

export interface OryUrls {
  kratosPublicUrl: URL;
  kratosAdminUrl: URL;
  ketoReadUrl: URL;
  ketoWriteUrl: URL;
}

/** How many calls of one list the Ory adapter has under way at once. */
const KRATOS_CONCURRENCY = 4;

const base = (url: URL) => url.toString().replace(/\/$/, '');
const statusOf = (error: unknown) => (error as { response?: { status?: number } }).response?.status;

const toUser = (identity: Identity): UserIdentity => {
  const traits = identity.traits as { email?: string; name?: { first?: string; last?: string } };
  return {
    id: identity.id,
    schema_id: identity.schema_id,
    state: identity.state === 'inactive' ? 'inactive' : 'active',
    traits: { email: traits.email ?? '', name: { first: traits.name?.first ?? '', last: traits.name?.last ?? '' } },
    created_at: identity.created_at ?? '',
    credentials: Object.keys(identity.credentials ?? {}).sort(),
    verified: (identity.verifiable_addresses ?? []).some((a) => a.verified),
    organisationRecord: readOrganisationRecord(identity.metadata_admin),
  };
};

/**
 * A syntactically valid argon2id hash of random bytes that no password matches: identities made by the Users API
 * carry it so that Kratos can find them by e-mail (`credentials_identifier`) before their owner sets a password.
 */
function unusablePasswordHash(): string {
  const b64 = (n: number) => crypto.randomBytes(n).toString('base64').replace(/=+$/, '');
  return `$argon2id$v=19$m=19456,t=2,p=1$${b64(16)}$${b64(32)}`;
}

// The Ory SDK is loaded only when the portal runs on Ory: it takes a tenth of the embedded set-up's start-up time.
type OrySdk = typeof import('@ory/client');

function identityPort({ Configuration, FrontendApi, IdentityApi }: OrySdk, urls: OryUrls): IdentityPort {
  const frontend = new FrontendApi(new Configuration({ basePath: base(urls.kratosPublicUrl) }));
  const identities = new IdentityApi(new Configuration({ basePath: base(urls.kratosAdminUrl) }));
  const getOne = async (id: string) => toUser((await identities.getIdentity({ id, includeCredential: ['totp'] })).data);

  return {
    async sessionOf(headers) {
      const { cookie } = headers;
      const token = headers['x-session-token'];
      if (!cookie && typeof token !== 'string') return undefined;
      try {
        // Needs Kratos' `session.whoami.required_aal: aal1`: the Users API enforces aal2 itself
        // (docs/architecture.md#the-ory-backend).
        const { data } = await frontend.toSession({
          cookie,
          xSessionToken: typeof token === 'string' ? token : undefined,
        });
        if (!data.identity || data.active === false) return undefined;
        const aal =
          data.authenticator_assurance_level === 'aal2'
            ? 'aal2'
            : data.authenticator_assurance_level === 'aal0'
              ? 'aal0'
              : 'aal1';
        return {
          sessionId: data.id,
          aal,
          methods: (data.authentication_methods ?? []).flatMap((m) => (m.method ? [m.method] : [])),
          ...(data.authenticated_at ? { authenticatedAt: data.authenticated_at } : {}),
          identity: await getOne(data.identity.id),
        };
      } catch (error) {
        if (statusOf(error) === 401 || statusOf(error) === 403) return undefined;
        throw error;
      }
    },
    // Kratos' admin API lists at most 500 identities by id per call: a large organisation takes several, asked a few
    // at a time rather than one after the other, and answered in the order of `ids` as the embedded port does.
    async get(ids) {
      const chunks: string[][] = [];
      for (let start = 0; start < ids.length; start += 500) chunks.push(ids.slice(start, start + 500));
      const pages: UserIdentity[][] = new Array(chunks.length);
      let next = 0;
      const worker = async () => {
        for (let index = next++; index < chunks.length; index = next++) {
          const chunk = chunks[index]!;
          const { data } = await identities.listIdentities({ ids: chunk, includeCredential: ['totp'], pageSize: 500 });
          pages[index] = data.map(toUser);
        }
      };
      await Promise.all(Array.from({ length: Math.min(KRATOS_CONCURRENCY, chunks.length) }, worker));
      const byId = new Map(pages.flat().map((user) => [user.id, user]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    async findByEmail(email) {
      const { data } = await identities.listIdentities({ credentialsIdentifier: email.trim().toLowerCase() });
      return data[0] ? getOne(data[0].id) : undefined;
    },
    async create(traits, organisationRecord = {}) {
      try {
        const { data } = await identities.createIdentity({
          createIdentityBody: {
            schema_id: 'default',
            traits,
            metadata_admin: withOrganisationRecord(null, organisationRecord),
            credentials: { password: { config: { hashed_password: unusablePasswordHash() } } },
          },
        });
        return getOne(data.id);
      } catch (error) {
        if (statusOf(error) === 409) throw new ConflictError('email in use');
        throw error;
      }
    },
    async update(id, changes) {
      const patch = [
        ...(changes.traits ? [{ op: 'replace' as const, path: '/traits', value: changes.traits }] : []),
        ...(changes.state ? [{ op: 'replace' as const, path: '/state', value: changes.state }] : []),
      ];
      try {
        if (patch.length > 0) await identities.patchIdentity({ id, jsonPatch: patch });
      } catch (error) {
        if (statusOf(error) === 409) throw new ConflictError('email in use');
        throw error;
      }
      if (changes.state === 'inactive') await identities.deleteIdentitySessions({ id }).catch(ignore404);
      return getOne(id);
    },
    async setOrganisationRecord(id, record) {
      const { data } = await identities.getIdentity({ id });
      const value = withOrganisationRecord(data.metadata_admin, record);
      await identities.patchIdentity({ id, jsonPatch: [{ op: 'add', path: '/metadata_admin', value }] });
    },
    async delete(id) {
      await identities.deleteIdentity({ id }).catch(ignore404);
    },
    async removeSecondFactors(id) {
      for (const type of RESET_CREDENTIALS) await identities.deleteIdentityCredentials({ id, type }).catch(ignore404);
    },
    async keysOf(id) {
      const { data } = await identities.getIdentity({ id, includeCredential: ['webauthn', 'passkey'] });
      return Object.entries(data.credentials ?? {}).flatMap(([type, credential]) =>
        keysInConfig(type, credential.config),
      );
    },
    async revokeSessions(id) {
      await identities.deleteIdentitySessions({ id }).catch(ignore404);
    },
    async liveSessions(ids) {
      const answers = await Promise.all(
        ids.map((id) =>
          identities.getSession({ id }).then(
            ({ data }) => (data.active ? id : undefined),
            (error: unknown) => ignore404(error),
          ),
        ),
      );
      return new Set(answers.filter((id): id is string => id !== undefined));
    },
    async endSession(id) {
      await identities.disableSession({ id }).catch(ignore404);
    },
    // Kratos keeps no lock after failed sign-ins (its rate limits sit in front of it), so there is none to lift.
    unlock: async () => false,
    async recoveryLink(id, lifespanMs) {
      const { data } = await identities.createRecoveryLinkForIdentity({
        createRecoveryLinkForIdentityBody: { identity_id: id, expires_in: `${Math.round(lifespanMs / 1000)}s` },
      });
      return data.recovery_link;
    },
  };
}

function ignore404(error: unknown) {
  if (statusOf(error) !== 404) throw error;
}

const queryParams = (query: TupleQuery) => ({
  namespace: query.namespace,
  object: query.object,
  relation: query.relation,
  subjectId: query.subject_id,
  subjectSetNamespace: query.subject_set?.namespace,
  subjectSetObject: query.subject_set?.object,
  subjectSetRelation: query.subject_set?.relation,
});

const isFullTuple = (query: TupleQuery): query is RelationTuple =>
  query.namespace !== undefined &&
  query.object !== undefined &&
  query.relation !== undefined &&
  (query.subject_id !== undefined || query.subject_set !== undefined);

function relationsPort({ Configuration, RelationshipApi }: OrySdk, urls: OryUrls): RelationsPort {
  const read = new RelationshipApi(new Configuration({ basePath: base(urls.ketoReadUrl) }));
  const write = new RelationshipApi(new Configuration({ basePath: base(urls.ketoWriteUrl) }));
  return {
    async list(query) {
      const tuples: RelationTuple[] = [];
      let pageToken: string | undefined;
      do {
        const { data } = await read.getRelationships({ ...queryParams(query), pageSize: 500, pageToken });
        tuples.push(
          ...(data.relation_tuples ?? []).map((t: Relationship) => ({
            namespace: t.namespace,
            object: t.object,
            relation: t.relation,
            ...(t.subject_set ? { subject_set: t.subject_set } : { subject_id: t.subject_id }),
          })),
        );
        pageToken = data.next_page_token || undefined;
      } while (pageToken);
      return tuples;
    },
    async patch(changes) {
      // Exact tuples go in one transactional PATCH; queries that name only part of a tuple are deleted by query.
      const deletes = changes.delete ?? [];
      const deltas = [
        ...deletes.filter(isFullTuple).map((t) => ({ action: 'delete' as const, relation_tuple: t })),
        ...(changes.insert ?? []).map((t) => ({ action: 'insert' as const, relation_tuple: t })),
      ];
      if (deltas.length > 0) await write.patchRelationships({ relationshipPatch: deltas });
      for (const query of deletes.filter((q) => !isFullTuple(q))) {
        if (!query.namespace) throw new Error('a delete by query needs a namespace');
        await write.deleteRelationships(queryParams(query));
      }
    },
  };
}

/**
 * The Ory backend: Kratos for identities and sessions, Keto for tuples, mail and audit on the portal's database. It
 * cannot write them in one transaction, so it `compensates`: a create whose tuples fail removes the identity again;
 * an audit entry is written once the change it records is made, so a crash in between loses the entry, never
 * records a change that was not made (docs/architecture.md#the-audit-log).
 */
export async function createOryBackend(
  urls: OryUrls,
  own: Pick<Ports, 'mail' | 'audit' | 'reviews' | 'importRows' | 'catalogue'>,
): Promise<Backend> {
  const sdk = await import('@ory/client');
  const ports: Ports = { identities: identityPort(sdk, urls), relations: relationsPort(sdk, urls), ...own };
  return { ...ports, compensates: true, atomically: (work) => work(ports) };
}
