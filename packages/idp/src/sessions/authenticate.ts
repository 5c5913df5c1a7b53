import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { IdpServices } from '../services.js';
import {
  findCredentials,
  findIdentity,
  type CredentialRecord,
  type IdentityRecord,
} from '../identities/identity-repository.js';
import { SESSION_COOKIE } from '../http/cookies.js';
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
function sessionTokenOf(request: FastifyRequest): { token: string; via: 'token' | 'cookie' } | undefined {
  const header = request.headers['x-session-token'];
  if (typeof header === 'string' && header) return { token: header, via: 'token' };
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie) return { token: cookie, via: 'cookie' };
  const authorization = request.headers.authorization;
  if (authorization?.toLowerCase().startsWith('bearer ')) return { token: authorization.slice(7).trim(), via: 'token' };
  return undefined;
}

const TOUCH_INTERVAL_MS = 60_000;

/** Resolves the request's live session, or undefined. Keeps the idle clock running (at most one write a minute). */
export async function authenticate(services: IdpServices, request: FastifyRequest): Promise<Authenticated | undefined> {
  const presented = sessionTokenOf(request);
  if (!presented || presented.token.length > 200) return undefined;
  const { db, clock, config } = services.ctx;
  const session = await findSessionByToken(db.kysely, presented.token);
  if (!session) return undefined;
  const identity = await findIdentity(db.kysely, session.identityId);
  const now = clock.now();
  if (!identity || !isSessionActive(session, identity, now, config.lifespans.sessionIdleMs)) return undefined;
  if (now.getTime() - new Date(session.lastSeenAt).getTime() > TOUCH_INTERVAL_MS) {
    await touchSession(db.kysely, session.id, now);
  }
  const credentials = await findCredentials(db.kysely, identity.id);
  return { session, identity, credentials, via: presented.via };
}
