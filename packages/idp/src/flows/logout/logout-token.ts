import crypto from 'node:crypto';

/**
 * The logout token is derived from the session id with the cookie secret, so it needs no storage and is bound to
 * exactly one session (Kratos' `ory_lo_` tokens).
 */
export function logoutTokenOf(secret: string, sessionId: string): string {
  const mac = crypto
    .createHmac('sha256', secret)
    .update(`logout:${sessionId}`)
    .digest('base64url')
    .replace(/[-_]/g, '');
  return `ory_lo_${mac.slice(0, 32)}`;
}
