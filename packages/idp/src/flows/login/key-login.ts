import {
  findCredentials,
  findIdentity,
  findIdentityIdByExactIdentifier,
  updateCredentialConfigIfUnchanged,
  type CredentialRecord,
} from '../../identities/identity-repository.js';
import {
  finishLogin,
  parseLoginAnswer,
  relyingParty,
  claimCeremonyState,
  type LoginResult,
} from '../../credentials/webauthn/ceremonies.js';
import { findKey, keyConfigOf, secondFactorKeys, type KeyKind } from '../../credentials/webauthn/credential-config.js';
import { availableAal } from '../../sessions/aal.js';
import { messages, type UiText } from '../../ui/messages.js';
import { addFlowMessage } from '../../ui/nodes.js';
import { clientAddress } from '../../http/client-info.js';
import { clientAddressKey, identifierKey } from '../../throttle/index.js';
import { emitAuthEvent } from '../../events.js';
import { sha256 } from '../../sessions/tokens.js';
import type { FlowContext } from '../flow-context.js';
import { flowAgain, type Outcome } from '../outcome.js';
import { loginSucceeded, secondFactorRequired } from './complete.js';
import { addPasskeyLogin, addSecurityKeyLogin } from './key-nodes.js';
import {
  completeSecondFactor,
  issueFirstFactorSession,
  requiredString,
  secondFactorSession,
  type LoginSubmission,
} from './login-submission.js';

/**
 * Sign-in with a passkey (first factor) or a security key (second factor), as Kratos' `passkey` and `webauthn`
 * methods (docs/kratos-compatibility.md#passkeys-and-security-keys). Each attempt uses up the flow's challenge; a
 * refused one gets the form back with a fresh challenge.
 */

/** A user handle as the authenticator returns it (base64url), read as the string Kratos keeps as identifier. */
function userHandleOf(encoded: unknown): string | undefined {
  if (typeof encoded !== 'string' || encoded === '' || encoded.length > 512) return undefined;
  const handle = Buffer.from(encoded, 'base64url').toString('utf8');
  return handle === '' ? undefined : handle;
}

/**
 * Keeps what the sign-in changed on the key (counter, clone warning), only if nobody used or changed the key since it
 * was read: of two requests answering the same challenge at once, one wins and the other gets false
 * (docs/security.md#50-counters-and-one-time-secrets-are-atomic). A counter that did not rise is logged for the audit.
 */
async function recordKeyUse(
  ctx: FlowContext,
  credential: CredentialRecord,
  result: LoginResult,
  method: KeyKind,
): Promise<boolean> {
  const { db, clock, log } = ctx.idp;
  const config = keyConfigOf([credential], method);
  config.credentials = config.credentials.map((key) => (key.id === result.key.id ? result.key : key));
  const saved = await updateCredentialConfigIfUnchanged(db.kysely, clock, credential, { ...config });
  if (!saved) return false;
  if (result.counterDidNotRise)
    log.warn(
      { event: 'login.key_clone_warning', identity: credential.identityId, method, key: result.key.id },
      'the signature counter of a key did not rise: the key may have been copied',
    );
  return true;
}

/**
 * Whether this refusal of a passkey that no identity has (a removed one, or one of another site's database) is the
 * first one of that credential from this client address within the lock window. Only the first counts towards the
 * address's limit: a browser whose autofill answers again and again with a passkey the portal removed would
 * otherwise lock out everyone behind its address within seconds. Such an answer cannot be guessed into a sign-in
 * (no public key to check it against), so counting it once loses no protection; each new credential id still counts
 * (docs/security.md#45-brute-force-limits-and-lockout).
 */
async function firstRefusalOfUnknownKey(ctx: FlowContext, ipKey: string, rawId: string): Promise<boolean> {
  const { lockMs } = ctx.idp.config.throttling;
  const repeatKey = `${ipKey}:unknown_passkey:${sha256(rawId)}`;
  const { failures } = await ctx.services.throttle.recordFailure(repeatKey, Number.POSITIVE_INFINITY, lockMs, lockMs);
  return failures === 1;
}

/** `method=passkey`: a discoverable passkey answers the flow's challenge; its user handle names the identity. */
export async function submitPasskey(submission: LoginSubmission): Promise<Outcome> {
  const { ctx, flow, body } = submission;
  const { db, config, log } = ctx.idp;
  if (flow.requestedAal === 'aal2') {
    addFlowMessage(flow.ui, messages.noLoginStrategy());
    return flowAgain(flow);
  }
  const state = await claimCeremonyState(ctx.idp, flow, 'passkey');
  const ipKey = clientAddressKey('login', clientAddress(ctx.request));
  /** `unknownKey`: the credential id of an answer from a passkey that no identity has (any more). */
  const refuse = async (message: UiText, identityId: string | null, unknownKey?: string) => {
    const { maxFailuresPerAddress, lockMs } = config.throttling;
    if (unknownKey === undefined || (await firstRefusalOfUnknownKey(ctx, ipKey, unknownKey)))
      await ctx.services.throttle.recordFailure(ipKey, maxFailuresPerAddress, lockMs, lockMs);
    log.info({ event: 'login.failure', identity: identityId, method: 'passkey' }, 'passkey sign-in refused');
    await emitAuthEvent(ctx.idp, {
      type: 'login.failure',
      method: 'passkey',
      identityId,
      clientAddress: clientAddress(ctx.request),
    });
    await addPasskeyLogin(ctx.idp, flow, flow.refresh ? submission.auth?.credentials : undefined);
    addFlowMessage(flow.ui, message);
    return flowAgain(flow);
  };
  const answer = parseLoginAnswer(body.passkey_login);
  if (!answer) return refuse(messages.generic('Unable to parse WebAuthn response.'), null);
  // A client locked for too many failed sign-ins gets no answer checked, as with passwords.
  if (await ctx.services.throttle.isLocked(ipKey)) return refuse(messages.invalidWebAuthn(), null);
  const handle = userHandleOf(answer.response.userHandle);
  const identityId = handle ? await findIdentityIdByExactIdentifier(db.kysely, 'passkey', handle) : undefined;
  if (!identityId) return refuse(messages.noWebAuthnUser(), null, answer.rawId);
  const credentials = await findCredentials(db.kysely, identityId);
  const credential = credentials.find((c) => c.type === 'passkey');
  const key = credential ? findKey(keyConfigOf(credentials, 'passkey'), answer.rawId) : undefined;
  if (!key) return refuse(messages.invalidWebAuthn(), identityId, answer.rawId);
  const result = state && key ? await finishLogin(relyingParty(ctx.idp), state, answer, key) : undefined;
  // A re-authentication must be the session's own person.
  const other = flow.refresh && submission.auth !== undefined && submission.auth.identity.id !== identityId;
  if (!credential || !result || other) return refuse(messages.invalidWebAuthn(), identityId);
  const identity = await findIdentity(db.kysely, identityId);
  if (identity?.state !== 'active') {
    await addPasskeyLogin(ctx.idp, flow, flow.refresh ? submission.auth?.credentials : undefined);
    addFlowMessage(flow.ui, messages.accountDisabled());
    return flowAgain(flow);
  }
  if (!(await recordKeyUse(ctx, credential, result, 'passkey'))) return refuse(messages.invalidWebAuthn(), identityId);
  const issued = await issueFirstFactorSession(submission, identity, 'passkey');
  log.info({ event: 'login.success', identity: identity.id, method: 'passkey' }, 'first factor passed');
  await emitAuthEvent(ctx.idp, {
    type: 'login.success',
    method: 'passkey',
    identityId: identity.id,
    clientAddress: clientAddress(ctx.request),
    ...(result.counterDidNotRise ? { cloneWarning: true } : {}),
  });
  const needsSecondFactor =
    availableAal(credentials) === 'aal2' && !issued.session.methods.some((m) => m.aal === 'aal2');
  if (needsSecondFactor) return secondFactorRequired(ctx, flow, issued);
  return loginSucceeded(ctx, flow, issued);
}

/**
 * `method=webauthn` on the second-factor step (browser flows only, as in Kratos): one of the identity's security keys
 * answers the challenge. Passkeys and passwordless keys are not among the allowed keys, so they are refused here.
 */
export async function submitSecurityKey(submission: LoginSubmission): Promise<Outcome> {
  const { ctx, flow, body } = submission;
  const { config, log } = ctx.idp;
  if (flow.type !== 'browser' || flow.requestedAal !== 'aal2') {
    addFlowMessage(flow.ui, messages.noLoginStrategy());
    return flowAgain(flow);
  }
  const auth = secondFactorSession(submission);
  if (requiredString(submission, 'identifier') === undefined) return flowAgain(flow);
  const state = await claimCeremonyState(ctx.idp, flow, 'webauthn');
  const answer = parseLoginAnswer(body.webauthn_login);
  const keys = { credentials: secondFactorKeys(auth.credentials), user_handle: '' };
  const key = answer ? findKey(keys, answer.rawId) : undefined;
  const throttleKey = identifierKey('second_factor', auth.identity.id);
  const locked = await ctx.services.throttle.isLocked(throttleKey);
  const result =
    !locked && state && answer && key ? await finishLogin(relyingParty(ctx.idp), state, answer, key) : undefined;
  if (!result) {
    const { maxFailures, lockMs } = config.throttling;
    const counted = await ctx.services.throttle.recordFailure(throttleKey, maxFailures, lockMs, lockMs);
    log.info({ event: 'login.failure', identity: auth.identity.id, method: 'webauthn' }, 'security key refused');
    await emitAuthEvent(ctx.idp, {
      type: counted.locked && !locked ? 'login.locked' : 'login.failure',
      method: 'webauthn',
      identityId: auth.identity.id,
      clientAddress: clientAddress(ctx.request),
    });
    await addSecurityKeyLogin(ctx.idp, flow, auth.credentials, auth.identity.traits.email);
    addFlowMessage(
      flow.ui,
      answer ? messages.invalidWebAuthn() : messages.generic('Unable to parse WebAuthn response.'),
    );
    return flowAgain(flow);
  }
  const credential = auth.credentials.find((c) => c.type === 'webauthn')!;
  if (!(await recordKeyUse(ctx, credential, result, 'webauthn'))) {
    await addSecurityKeyLogin(ctx.idp, flow, auth.credentials, auth.identity.traits.email);
    addFlowMessage(flow.ui, messages.invalidWebAuthn());
    return flowAgain(flow);
  }
  await ctx.services.throttle.reset(throttleKey);
  return completeSecondFactor(submission, 'webauthn', result.counterDidNotRise);
}
