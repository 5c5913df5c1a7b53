import { uiUrl } from '../../http/return-to.js';
import { clientAddress, userAgent } from '../../http/client-info.js';
import { findCredentials, findIdentity, markAddressVerified } from '../../identities/identity-repository.js';
import { insertSession, revokeSessionsOfIdentity } from '../../sessions/session-repository.js';
import { identifierKey } from '../../throttle/index.js';
import { messages } from '../../ui/messages.js';
import { saveFlow, type Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { flowJson } from '../flow-json.js';
import { regenerateCsrfCookie } from '../flow-http.js';
import type { Outcome } from '../outcome.js';
import { startSettingsFlow } from '../settings/create.js';

/** A spent recovery code or link: whose it was, the address it went to, and which method it was. */
export interface SpentRecovery {
  identityId: string;
  address: string;
  method: 'code_recovery' | 'link_recovery';
}

/**
 * A recovery code or link was accepted: the address is verified, the identity's other sessions end, a session (aal1,
 * `code_recovery` or `link_recovery`) is issued and the browser goes to a settings flow carrying message 1060001
 * (docs/kratos-compatibility.md#recovery); API flows answer with the flow, whose `continue_with` holds the session
 * token and the settings flow. Undefined when no session may be issued (identity disabled or locked).
 */
export async function finishRecovery(ctx: FlowContext, flow: Flow, spent: SpentRecovery): Promise<Outcome | undefined> {
  const { throttle } = ctx.services;
  const { db, clock, config, log } = ctx.idp;
  const { method } = spent;
  const identity = await findIdentity(db.kysely, spent.identityId);
  // The login lock applies to every path that issues a session.
  if (identity?.state !== 'active' || (await throttle.isLocked(identifierKey('login', identity.traits.email)))) {
    return undefined;
  }
  const now = clock.now();
  // Kratos' `revoke_active_sessions` hook after recovery: whoever recovers an account may have lost it to someone
  // else, so every other session ends with the new one's start.
  const { issued, revoked } = await db.kysely.transaction().execute(async (trx) => {
    await markAddressVerified(trx, clock, identity.id, spent.address);
    const revoked = await revokeSessionsOfIdentity(trx, identity.id);
    const issued = await insertSession(trx, clock, {
      identityId: identity.id,
      methods: [{ method, aal: 'aal1', completed_at: now.toISOString() }],
      lifespanMs: config.lifespans.sessionMs,
      ipAddress: clientAddress(ctx.request),
      userAgent: userAgent(ctx.request),
    });
    return { issued, revoked };
  });
  log.info({ event: 'recovery.success', identity: identity.id, method, revokedSessions: revoked }, 'account recovered');
  flow.state = 'passed_challenge';
  // The finished flow moves to the new cookie too, as in Kratos' recoveryIssueSession.
  flow.csrfToken = flow.type === 'browser' ? regenerateCsrfCookie(ctx) : flow.csrfToken;
  const credentials = await findCredentials(db.kysely, identity.id);
  const settings = await startSettingsFlow(
    ctx.services,
    { identity, credentials, session: issued.session },
    {
      type: flow.type,
      requestUrl: flow.requestUrl,
      csrfToken: flow.csrfToken,
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
  }
  await saveFlow(db.kysely, clock, flow);
  return {
    kind: 'continue_elsewhere',
    flow,
    issued: { ...issued, identity, now },
    to: settingsUi,
    // API flows answer with the flow even from a mail link, which is otherwise the browser's.
    forApi: { kind: 'json', status: 200, body: flowJson(flow, config) },
  };
}
