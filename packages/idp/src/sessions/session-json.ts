import { identityJson } from '../identities/identity-json.js';
import type { IdentityRecord } from '../identities/identity-repository.js';
import type { Clock } from '../clock.js';
import type { IdpConfig } from '../config.js';
import { sessionAal } from './aal.js';
import type { SessionRecord } from './session-repository.js';

/** Whether the session can be used now: not revoked, not expired, not idle too long, identity active. */
export function isSessionActive(
  session: SessionRecord,
  identity: Pick<IdentityRecord, 'state'> | undefined,
  now: Date,
  idleMs: number,
): boolean {
  return (
    session.active &&
    new Date(session.expiresAt).getTime() > now.getTime() &&
    new Date(session.lastSeenAt).getTime() + idleMs > now.getTime() &&
    identity?.state === 'active'
  );
}

/** A session as Kratos serialises it (docs/kratos-compatibility.md#sessions-api). */
export function sessionJson(
  ctx: { clock: Clock; config: IdpConfig },
  session: SessionRecord,
  identity: IdentityRecord | undefined,
  options: { admin?: boolean; includeIdentity?: boolean } = {},
): Record<string, unknown> {
  return {
    id: session.id,
    active: isSessionActive(session, identity, ctx.clock.now(), ctx.config.lifespans.sessionIdleMs),
    expires_at: session.expiresAt,
    authenticated_at: session.authenticatedAt,
    authenticator_assurance_level: sessionAal(session.methods),
    authentication_methods: session.methods,
    issued_at: session.issuedAt,
    ...(options.includeIdentity === false
      ? {}
      : {
          identity: identity ? identityJson(identity, { publicUrl: ctx.config.publicUrl, admin: options.admin }) : null,
        }),
    devices: [{ id: session.id, ip_address: session.ipAddress, user_agent: session.userAgent, location: '' }],
  };
}
