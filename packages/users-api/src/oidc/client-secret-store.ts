import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { UsersApiDatabase } from '../db/schema.js';
import { hashClientSecret } from './oidc-clients.js';

/**
 * The client secrets the portal generated for data services in 'Programmabeheer' (`oidc_client_secrets`): only their
 * SHA-256 is kept. A rotation leaves the previous secrets valid until the overlap ends, so a service can take the
 * new one into use without a moment in which neither works.
 */
export interface ClientSecretPort {
  /** Adds a new secret for the client; the others stay valid until `othersUntil` (ISO 8601), or for good. */
  addSecret(clientId: string, hash: string, othersUntil?: string): Promise<void>;
  /** Forgets every secret of the client (its service or its client is removed). */
  removeSecrets(clientId: string): Promise<void>;
}

/** A new client secret: 256 random bits, 43 characters, as long as OIDC_CLIENT_SECRET_<ID> asks at least. */
export function newClientSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashClientSecret(secret) };
}

export function createClientSecretWrites<DB>(db: Kysely<DB>, now: () => Date = () => new Date()): ClientSecretPort {
  const typed = db as unknown as Kysely<UsersApiDatabase>;
  return {
    async addSecret(clientId, hash, othersUntil) {
      const at = now().toISOString();
      // Secrets whose overlap has ended are gone for good; the others end when this overlap does, or earlier.
      await typed
        .deleteFrom('oidc_client_secrets')
        .where('client_id', '=', clientId)
        .where('expires_at', '<=', at)
        .execute();
      if (othersUntil !== undefined) {
        await typed
          .updateTable('oidc_client_secrets')
          .set({ expires_at: othersUntil })
          .where('client_id', '=', clientId)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', othersUntil)]))
          .execute();
      }
      await typed
        .insertInto('oidc_client_secrets')
        .values({ client_id: clientId, hash, created_at: at, expires_at: null })
        .execute();
    },
    async removeSecrets(clientId) {
      await typed.deleteFrom('oidc_client_secrets').where('client_id', '=', clientId).execute();
    },
  };
}

/** The hashes of a client's generated secrets that are valid now, newest first. */
export async function validSecretHashes<DB>(
  db: Kysely<DB>,
  clientId: string,
  at: Date = new Date(),
): Promise<string[]> {
  const rows = await (db as unknown as Kysely<UsersApiDatabase>)
    .selectFrom('oidc_client_secrets')
    .select('hash')
    .where('client_id', '=', clientId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at.toISOString())]))
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => row.hash);
}
