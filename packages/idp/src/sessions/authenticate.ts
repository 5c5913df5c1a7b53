import type { IncomingHttpHeaders } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { IdpServices } from '../services.js';
import { findCredentials, type CredentialRecord } from '../identities/identity-repository.js';
import { sessionCookieName } from '../http/cookies.js';
import { availableAal } from './aal.js';
import { touchSession } from './session-repository.js';
import { isSessionActive } from './session-json.js';
import { findSessionWithIdentity, type SessionWithIdentity } from './session-lookup.js';

/** A live session with its identity: all that whoami and the sessions API need. */
export interface AuthenticatedSession extends SessionWithIdentity {
  /** How the token was presented: API clients get tokens back, browsers cookies. */
  via: 'token' | 'cookie';
}

/** A live session with the identity's credentials as well, for the flows that check or change them. */
export interface Authenticated extends AuthenticatedSession {
  credentials: CredentialRecord[];
}

/** What a session check reads of a request: its headers, and its cookies as Fastify parsed them or a parser. */
export interface SessionRequest {
  headers: IncomingHttpHeaders;
  cookie(name: string): string | undefined;
}

/** The session token from `X-Session-Token`, the session cookie or `Authorization: Bearer`, in Kratos' order. */
function sessionTokenOf(
  request: SessionRequest,
  cookieName: string,
): { token: string; via: 'token' | 'cookie' } | undefined {
  const header = request.headers['x-session-token'];
  if (typeof header === 'string' && header) return { token: header, via: 'token' };
  const cookie = request.cookie(cookieName);
  if (cookie) return { token: cookie, via: 'cookie' };
  const authorization = request.headers.authorization;
  if (authorization?.toLowerCase().startsWith('bearer ')) return { token: authorization.slice(7).trim(), via: 'token' };
  return undefined;
}

const fromFastify = (request: FastifyRequest): SessionRequest => ({
  headers: request.headers,
  cookie: (name) => request.cookies[name],
});

/** How often the idle clock is written: once a minute, or a tenth of a short idle timeout, so use always counts. */
export const touchIntervalMs = (idleMs: number) => Math.min(60_000, Math.floor(idleMs / 10));

/**
 * Resolves the request's live session, or undefined, with one statement (two when the idle clock is due). Nothing
 * is cached between requests here (whoami keeps its answer only while the check mark stays,
 * whoami-before-routing.ts), so a logout, block, 2FA reset or revocation on any process counts at once
 * (docs/kratos-compatibility.md#sessions-api). Keeps the idle clock running without a write per request.
 */
export function authenticateSession(
  services: IdpServices,
  request: FastifyRequest,
): Promise<AuthenticatedSession | undefined> {
  return authenticateSessionOf(services, fromFastify(request));
}

/** As authenticateSession, for a request the HTTP framework has not parsed (whoami-before-routing.ts). */
export async function authenticateSessionOf(
  services: IdpServices,
  request: SessionRequest,
): Promise<AuthenticatedSession | undefined> {
  const { db, clock, config } = services.ctx;
  const presented = sessionTokenOf(request, sessionCookieName(config));
  if (!presented || presented.token.length > 200) return undefined;
  const now = clock.now();
  const found = await findSessionWithIdentity(db, presented.token, now);
  if (!found) return undefined;
  const { session, identity } = found;
  if (!isSessionActive(session, identity, now, config.lifespans.sessionIdleMs)) return undefined;
  if (now.getTime() - new Date(session.lastSeenAt).getTime() > touchIntervalMs(config.lifespans.sessionIdleMs)) {
    await touchSession(db.kysely, session.id, now);
    // As written: an answer kept from it lasts until the next write is due (kept-answers.ts), not one request.
    return { ...found, session: { ...session, lastSeenAt: now.toISOString() }, via: presented.via };
  }
  return { ...found, via: presented.via };
}

/** A session check's view of a request that only its headers tell: the cookies are parsed when first asked for. */
export function sessionRequestOf(headers: IncomingHttpHeaders): SessionRequest {
  let cookies: Record<string, string | undefined> | undefined;
  return {
    headers,
    cookie: (name) => {
      cookies ??= headers.cookie ? fastifyCookie.parse(headers.cookie) : {};
      return cookies[name];
    },
  };
}

/**
 * The live session the headers present (cookie, `X-Session-Token` or `Authorization: Bearer`) with the identity's
 * credentials, for callers outside Fastify's request handling (the Users API's port takes plain values).
 */
export async function authenticateHeaders(
  services: IdpServices,
  headers: IncomingHttpHeaders,
): Promise<Authenticated | undefined> {
  const auth = await authenticateSessionOf(services, sessionRequestOf(headers));
  if (!auth) return undefined;
  const credentials = await findCredentials(services.ctx.db.kysely, auth.identity.id);
  return { ...auth, credentials, secondFactorAvailable: availableAal(credentials) === 'aal2' };
}

/** As authenticateSession, and loads the identity's credentials (one more statement). */
export async function authenticate(services: IdpServices, request: FastifyRequest): Promise<Authenticated | undefined> {
  const auth = await authenticateSession(services, request);
  if (!auth) return undefined;
  const credentials = await findCredentials(services.ctx.db.kysely, auth.identity.id);
  // From the credentials just read, so that the flag and the list never disagree within one request.
  return { ...auth, credentials, secondFactorAvailable: availableAal(credentials) === 'aal2' };
}
