import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { setSessionCookie } from '../../http/cookies.js';
import { uiUrl } from '../../http/return-to.js';
import { clientAddress, userAgent } from '../../http/client-info.js';
import { findCredentials, findIdentity, markAddressVerified } from '../../identities/identity-repository.js';
import { insertSession, revokeSessionsOfIdentity } from '../../sessions/session-repository.js';
import { identifierKey } from '../../throttle/index.js';
import { messages } from '../../ui/messages.js';
import { saveFlow, type Flow } from '../flow.js';
import { redirect, regenerateCsrfCookie, sendFlow, wantsRedirect } from '../flow-http.js';
import { startSettingsFlow } from '../settings/create.js';

/**
 * A recovery code or link was accepted: the address is verified, the identity's other sessions end, a session (aal1,
 * `code_recovery` or `link_recovery`) is issued and the browser goes to a settings flow carrying message 1060001
 * (docs/kratos-compatibility.md#recovery). Returns whether it answered: false when no session may be issued (identity
 * disabled or locked). A boolean, not the reply: awaiting a Fastify reply waits for the response and yields undefined.
 */
export async function finishRecovery(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  identityId: string,
  address: string,
  method: 'code_recovery' | 'link_recovery',
  forceRedirect = false,
): Promise<boolean> {
  const { ctx, throttle } = services;
  const { db, clock, config } = ctx;
  const identity = await findIdentity(db.kysely, identityId);
  // The login lock applies to every path that issues a session.
  if (identity?.state !== 'active' || (await throttle.isLocked(identifierKey('login', identity.traits.email)))) {
    return false;
  }
  const now = clock.now();
  // Kratos' `revoke_active_sessions` hook after recovery: whoever recovers an account may have lost it to someone
  // else, so every other session ends with the new one's start.
  const { issued, revoked } = await db.kysely.transaction().execute(async (trx) => {
    await markAddressVerified(trx, clock, identity.id, address);
    const revoked = await revokeSessionsOfIdentity(trx, identity.id);
    const issued = await insertSession(trx, clock, {
      identityId: identity.id,
      methods: [{ method, aal: 'aal1', completed_at: now.toISOString() }],
      lifespanMs: config.lifespans.sessionMs,
      ipAddress: clientAddress(request),
      userAgent: userAgent(request),
    });
    return { issued, revoked };
  });
  ctx.log.info(
    { event: 'recovery.success', identity: identity.id, method, revokedSessions: revoked },
    'account recovered',
  );
  flow.state = 'passed_challenge';
  const csrfToken = flow.type === 'browser' ? regenerateCsrfCookie(services, reply) : flow.csrfToken;
  // The finished flow moves to the new cookie too, as in Kratos' recoveryIssueSession.
  flow.csrfToken = csrfToken;
  const credentials = await findCredentials(db.kysely, identity.id);
  const settings = await startSettingsFlow(
    services,
    { identity, credentials, session: issued.session },
    {
      type: flow.type,
      requestUrl: flow.requestUrl,
      csrfToken,
      returnTo: flow.returnTo,
      message: messages.recoverySuccessful(new Date(now.getTime() + config.lifespans.privilegedSessionMs), now),
    },
  );
  const settingsUi = uiUrl(config, 'settings', { flow: settings.id });
  if (flow.type === 'api') {
    flow.internal.continue_with = [
      { action: 'set_ory_session_token', ory_session_token: issued.token },
      { action: 'show_settings_ui', flow: { id: settings.id, url: settingsUi } },
    ];
    await saveFlow(db.kysely, clock, flow);
    sendFlow(services, reply, 200, flow);
    return true;
  }
  await saveFlow(db.kysely, clock, flow);
  setSessionCookie(reply, config, issued.token, new Date(issued.session.expiresAt), now);
  if (!forceRedirect && !wantsRedirect(request, flow, true))
    throw kratosErrors.browserLocationChangeRequired(settingsUi);
  redirect(reply, settingsUi);
  return true;
}
