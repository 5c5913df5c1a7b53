import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { type CredentialChangeEvent, recordCredentialChange } from '../../events.js';
import { clientAddress } from '../../http/client-info.js';
import { publicUrlOf } from '../../http/return-to.js';
import { findCredentials, findIdentity } from '../../identities/identity-repository.js';
import type { Authenticated } from '../../sessions/authenticate.js';
import { raiseToAal2 } from '../../sessions/session-repository.js';
import { messages } from '../../ui/messages.js';
import { addFlowMessage } from '../../ui/nodes.js';
import { saveFlow, type Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { flowUiUrl } from '../flow-http.js';
import { returnUrlOf } from '../flow-request.js';
import { flowAgain, type Outcome } from '../outcome.js';
import { settingsNodes } from './nodes.js';

/** What the settings methods share: the submission, the privileged-session check, and the answers after a change. */

/** One settings submission: the request's context, the opened flow, what was submitted, and whose session. */
export interface SettingsSubmission {
  ctx: FlowContext;
  flow: Flow;
  body: Record<string, unknown>;
  auth: Authenticated;
}

/**
 * Changes of password, address and second factor need a recent sign-in
 * (docs/kratos-compatibility.md#privileged-session).
 */
export function ensurePrivileged(submission: SettingsSubmission): void {
  const { ctx, flow, auth } = submission;
  const { config, clock } = ctx.idp;
  const fresh =
    new Date(auth.session.authenticatedAt).getTime() + config.lifespans.privilegedSessionMs > clock.now().getTime();
  if (!fresh) {
    const back = publicUrlOf(config, '/self-service/settings', { flow: flow.id });
    throw kratosErrors.sessionRefreshRequired(
      publicUrlOf(config, '/self-service/login/browser', { refresh: 'true', return_to: back }),
    );
  }
}

/**
 * Tells the audit listener (docs/architecture.md#the-audit-log) that a way to sign in came, went or was replaced: its
 * kind and, for a key, its name. Called inside the change's transaction (`trx`), so that the entry commits with it.
 */
export async function credentialChanged(
  submission: SettingsSubmission,
  trx: Kysely<Database>,
  type: CredentialChangeEvent['type'],
  method: CredentialChangeEvent['method'],
  displayName?: string,
): Promise<void> {
  await recordCredentialChange(submission.ctx.idp, trx, {
    type,
    method,
    identityId: submission.auth.identity.id,
    ...(displayName ? { displayName } : {}),
    clientAddress: clientAddress(submission.ctx.request),
  });
}

/** The flow again with its messages and the identity (settings flows carry it); 400 unless told. */
export const settingsAgain = (submission: SettingsSubmission, status = 400): Outcome =>
  flowAgain(submission.flow, status, submission.auth.identity);

/**
 * A change is saved: the flow shows the new state. Kratos (settings/hook.go) tells browser clients where to go next:
 * the return_to, else the settings UI with this flow; API clients get no redirect.
 */
export async function settingsSaved(submission: SettingsSubmission): Promise<Outcome> {
  const { ctx, flow, auth } = submission;
  const { services } = ctx;
  const { db, clock } = ctx.idp;
  const identity = (await findIdentity(db.kysely, auth.identity.id))!;
  const credentials = await findCredentials(db.kysely, identity.id);
  delete flow.internal.pending_recovery_codes;
  delete flow.internal.reveal_recovery_codes;
  delete flow.internal.totp_url;
  delete flow.internal.continue_with;
  flow.state = 'success';
  flow.ui.nodes = await settingsNodes(services, { flow, identity, credentials });
  addFlowMessage(flow.ui, messages.changesSaved());
  const next = flow.returnTo ? returnUrlOf(services, flow.returnTo) : flowUiUrl(services, flow);
  if (flow.type === 'browser')
    flow.internal.continue_with = [{ action: 'redirect_browser_to', redirect_browser_to: next }];
  await saveFlow(db.kysely, clock, flow);
  return { kind: 'flow', flow, status: 200, identity, browserTo: next };
}

/**
 * A second factor set up within an aal1 session raises the session to aal2, with a new token: a cookie for browsers,
 * `X-Session-Token` for clients that sent a token.
 */
export async function addSecondFactorToSession(
  submission: SettingsSubmission,
  method: 'totp' | 'lookup_secret' | 'webauthn',
) {
  const { ctx, auth } = submission;
  const { clock } = ctx.idp;
  if (auth.session.methods.some((m) => m.aal === 'aal2')) return;
  const upgraded = await raiseToAal2(ctx.idp, auth.session, method);
  if (auth.via === 'cookie') ctx.effects.setSession(upgraded.token, new Date(upgraded.session.expiresAt), clock.now());
  else ctx.effects.header('X-Session-Token', upgraded.token);
}
