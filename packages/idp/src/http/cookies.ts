import crypto from 'node:crypto';
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpConfig } from '../config.js';

const SESSION_COOKIE = 'ory_kratos_session';

/** Kratos' `session.cookie.name`; a deployment behind https may choose `__Host-…` (Secure, Path=/, no Domain). */
export const sessionCookieName = (config: IdpConfig): string => config.sessionCookieName ?? SESSION_COOKIE;

/** `csrf_token_<hex(sha256(public base URL))>` (docs/kratos-compatibility.md#csrf). */
const csrfCookieName = (config: IdpConfig): string =>
  `csrf_token_${crypto.createHash('sha256').update(config.publicUrl.toString()).digest('hex')}`;

const secure = (config: IdpConfig) => config.publicUrl.protocol === 'https:';

export function setSessionCookie(
  reply: FastifyReply,
  config: IdpConfig,
  token: string,
  expiresAt: Date,
  now: Date,
): void {
  void reply.setCookie(sessionCookieName(config), token, {
    httpOnly: true,
    secure: secure(config),
    sameSite: 'lax',
    path: '/',
    domain: config.sessionCookieDomain,
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: IdpConfig): void {
  void reply.setCookie(sessionCookieName(config), '', {
    httpOnly: true,
    secure: secure(config),
    sameSite: 'lax',
    path: '/',
    domain: config.sessionCookieDomain,
    maxAge: -1,
  });
}

/** The anti-CSRF cookie's value: the real token, 32 random bytes in standard base64. */
export function readCsrfCookie(request: FastifyRequest, config: IdpConfig): string | undefined {
  const value = request.cookies[csrfCookieName(config)];
  return value && value.length > 0 ? value : undefined;
}

export function setCsrfCookie(reply: FastifyReply, config: IdpConfig, token: string): void {
  void reply.setCookie(csrfCookieName(config), token, {
    httpOnly: true,
    secure: secure(config),
    sameSite: 'lax',
    path: '/',
    maxAge: 31_536_000,
  });
}

export const newCsrfToken = (): string => crypto.randomBytes(32).toString('base64');

/** nosurf's masked token: base64(pad ‖ real XOR pad), so each render differs and all verify. */
export function maskCsrfToken(real: string): string {
  const realBytes = Buffer.from(real, 'base64');
  const pad = crypto.randomBytes(realBytes.length);
  const masked = Buffer.alloc(realBytes.length);
  for (let i = 0; i < realBytes.length; i++) masked[i] = realBytes[i]! ^ pad[i]!;
  return Buffer.concat([pad, masked]).toString('base64');
}

function unmaskCsrfToken(masked: string): string | undefined {
  const bytes = Buffer.from(masked, 'base64');
  if (bytes.length !== 64) return undefined;
  const pad = bytes.subarray(0, 32);
  const real = Buffer.alloc(32);
  for (let i = 0; i < 32; i++) real[i] = bytes[32 + i]! ^ pad[i]!;
  return real.toString('base64');
}

export function csrfTokensMatch(real: string, masked: string): boolean {
  const unmasked = unmaskCsrfToken(masked);
  if (!unmasked) return false;
  const a = Buffer.from(real, 'base64');
  const b = Buffer.from(unmasked, 'base64');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
