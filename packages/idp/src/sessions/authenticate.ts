import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { IdpServices } from '../services.js';
import {
  findCredentials,
  findIdentity,
  type CredentialRecord,
  type IdentityRecord,
} from '../identities/identity-repository.js';
import { sessionCookieName } from '../http/cookies.js';
import { findSessionByToken, touchSession, type SessionRecord } from './session-repository.js';
import { isSessionActive } from './session-json.js';

export interface Authenticated {
  session: SessionRecord;
  identity: IdentityRecord;
  credentials: CredentialRecord[];
  /** How the token was presented: API clients get tokens back, browsers cookies. */
  via: 'token' | 'cookie';
}

/** The session token from `X-Session-Token`, the session cookie or `Authorization: Bearer`, in Kratos' order. */
function sessionTokenOf(
  request: FastifyRequest,
  cookieName: string,
): { token: string; via: 'token' | 'cookie' } | undefined {
  const header = request.headers['x-session-token'];
  if (typeof header === 'string' && header) return { token: header, via: 'token' };
  const cookie = request.cookies[cookieName];
  if (cookie) return { token: cookie, via: 'cookie' };
  const authorization = request.headers.authorization;
  if (authorization?.toLowerCase().startsWith('bearer ')) return { token: authorization.slice(7).trim(), via: 'token' };
  return undefined;
}

/** How often the idle clock is written: once a minute, or a tenth of a short idle timeout, so use always counts. */
const touchIntervalMs = (idleMs: number) => Math.min(60_000, Math.floor(idleMs / 10));

/** Resolves the request's live session, or undefined. Keeps the idle clock running without a write per request. */
export async function authenticate(services: IdpServices, request: FastifyRequest): Promise<Authenticated | undefined> {
  const { db, clock, config } = services.ctx;
  const presented = sessionTokenOf(request, sessionCookieName(config));
  if (!presented || presented.token.length > 200) return undefined;
  const session = await findSessionByToken(db.kysely, presented.token);
  if (!session) return undefined;
  const identity = await findIdentity(db.kysely, session.identityId);
  const now = clock.now();
  if (!identity || !isSessionActive(session, identity, now, config.lifespans.sessionIdleMs)) return undefined;
  if (now.getTime() - new Date(session.lastSeenAt).getTime() > touchIntervalMs(config.lifespans.sessionIdleMs)) {
    await touchSession(db.kysely, session.id, now);
  }
  const credentials = await findCredentials(db.kysely, identity.id);
  return { session, identity, credentials, via: presented.via };
}
