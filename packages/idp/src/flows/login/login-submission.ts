import { kratosErrors } from '../../errors/kratos-errors.js';
import type { IdentityRecord } from '../../identities/identity-repository.js';
import type { Authenticated } from '../../sessions/authenticate.js';
import type { AuthenticationMethod } from '../../sessions/aal.js';
import { insertSession, raiseToAal2, upgradeSession } from '../../sessions/session-repository.js';
import { messages, type UiText } from '../../ui/messages.js';
import { addNodeMessage } from '../../ui/nodes.js';
import { clientAddress, userAgent } from '../../http/client-info.js';
import { emitAuthEvent } from '../../events.js';
import type { Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import type { IssuedSession, Outcome } from '../outcome.js';
import { loginSucceeded } from './complete.js';

/** What the login methods share: the submission, its required fields, and the sessions they issue or raise. */

/** One login submission: the request's context, the opened flow and what was submitted. */
export interface LoginSubmission {
  ctx: FlowContext;
  flow: Flow;
  body: Record<string, unknown>;
  json: boolean;
  auth: Authenticated | undefined;
}

/**
 * A required string field: a node message for missing / empty / wrong-typed values, else the value. Forms that send
 * an empty value read as missing, unless `json` (the second factor's codes count as JSON always).
 */
export function requiredString(
  submission: Pick<LoginSubmission, 'flow' | 'body' | 'json'>,
  name: string,
  minLength = 1,
): string | undefined {
  const { flow, body, json } = submission;
  const value = body[name];
  let message: UiText | undefined;
  if (value === undefined || value === null) message = messages.missingProperty(name);
  else if (typeof value !== 'string')
    message = messages.wrongType('string', Array.isArray(value) ? 'array' : typeof value);
  else if ([...value].length < minLength)
    message =
      json || value.length > 0 ? messages.tooShort(minLength, [...value].length) : messages.missingProperty(name);
  if (message) {
    addNodeMessage(flow.ui, name, message);
    return undefined;
  }
  return value as string;
}

/** A new aal1 session, or, re-authenticating the same identity (`refresh`), the current one renewed. */
export async function issueFirstFactorSession(
  submission: LoginSubmission,
  identity: IdentityRecord,
  name: 'password' | 'passkey' = 'password',
): Promise<IssuedSession> {
  const { ctx, flow, auth } = submission;
  const { db, clock, config } = ctx.idp;
  const method: AuthenticationMethod = { method: name, aal: 'aal1', completed_at: clock.now().toISOString() };
  const issued =
    flow.refresh && auth && auth.identity.id === identity.id
      ? await upgradeSession(db.kysely, clock, auth.session, [method], {
          reauthenticated: true,
          lifespanMs: config.lifespans.sessionMs,
        })
      : await insertSession(db.kysely, clock, {
          identityId: identity.id,
          methods: [method],
          lifespanMs: config.lifespans.sessionMs,
          ipAddress: clientAddress(ctx.request),
          userAgent: userAgent(ctx.request),
        });
  return { ...issued, identity };
}

/** The second factor needs the aal1 session of the first; the flow is bound to its identity. */
export function secondFactorSession(submission: LoginSubmission): Authenticated {
  const { flow, auth } = submission;
  if (!auth) throw kratosErrors.sessionAal1Required();
  if (flow.identityId === null) flow.identityId = auth.identity.id;
  return auth;
}

/** The aal1 session becomes aal2 (with a new token) and the login is done. */
export async function completeSecondFactor(
  submission: LoginSubmission,
  method: 'totp' | 'lookup_secret' | 'webauthn',
  cloneWarning = false,
): Promise<Outcome> {
  const { ctx, flow } = submission;
  const { log } = ctx.idp;
  const auth = submission.auth!;
  const identity = auth.identity;
  const upgraded = await raiseToAal2(ctx.idp, auth.session, method);
  log.info({ event: 'login.success', identity: identity.id, method }, 'second factor passed');
  await emitAuthEvent(ctx.idp, {
    type: 'login.success',
    method,
    identityId: identity.id,
    clientAddress: clientAddress(ctx.request),
    ...(cloneWarning ? { cloneWarning } : {}),
  });
  return loginSucceeded(ctx, flow, { ...upgraded, identity });
}
