import { listSessionsOfIdentity } from '../sessions/session-repository.js';
import { type DbExecutor, findCredentials, findIdentity } from './identity-repository.js';

/**
 * Everything the identity provider holds about a person, for a request under AVG article 15: the identity, which
 * credentials exist (never their secrets), the sessions' metadata and the mails sent (subjects, not bodies, which
 * carry codes and links).
 */
export async function personalDataOf(db: DbExecutor, identityId: string) {
  const identity = await findIdentity(db, identityId);
  if (!identity) return undefined;
  const [credentials, sessions, mails] = await Promise.all([
    findCredentials(db, identityId),
    listSessionsOfIdentity(db, identityId),
    db
      .selectFrom('courier_messages')
      .select(['subject', 'template_type', 'status', 'created_at', 'updated_at'])
      .where((eb) => eb(eb.fn('lower', ['recipient']), '=', identity.traits.email.toLowerCase()))
      .orderBy('created_at')
      .execute(),
  ]);
  return {
    identity: {
      id: identity.id,
      state: identity.state,
      traits: identity.traits,
      addresses: identity.verifiableAddresses.map((a) => ({ value: a.value, verified: a.verified })),
      metadata_admin: identity.metadataAdmin ?? null,
      created_at: identity.createdAt,
    },
    credentials: credentials.map((c) => ({
      type: c.type,
      identifiers: c.type === 'password' ? c.identifiers : [],
      created_at: c.createdAt,
      updated_at: c.updatedAt,
    })),
    sessions: sessions.map((s) => ({
      active: s.active,
      authenticated_at: s.authenticatedAt,
      expires_at: s.expiresAt,
      last_seen_at: s.lastSeenAt,
      ip_address: s.ipAddress,
      user_agent: s.userAgent,
    })),
    mails,
  };
}
