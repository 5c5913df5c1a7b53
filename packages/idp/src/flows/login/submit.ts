import { kratosErrors } from '../../errors/kratos-errors.js';
import {
  claimTotpStep,
  findCredentials,
  findIdentity,
  findIdentityIdByIdentifier,
  saveCredential,
  updateCredentialConfigIfUnchanged,
  type CredentialRecord,
  type IdentityRecord,
} from '../../identities/identity-repository.js';
import { availableAal } from '../../sessions/aal.js';
import { messages, type UiText } from '../../ui/messages.js';
import { addFlowMessage, setNodeValue } from '../../ui/nodes.js';
import { clientAddress } from '../../http/client-info.js';
import { clientAddressKey, identifierKey } from '../../throttle/index.js';
import { emitAuthEvent } from '../../events.js';
import { secretOfTotpUrl, verifyTotpCode } from '../../credentials/totp/totp.js';
import { findRecoveryCode, recoveryCodesOf, type RecoveryCode } from '../../credentials/lookup/lookup-secrets.js';
import type { Flow } from '../flow.js';
import type { FlowContext } from '../flow-context.js';
import { returnUrlOf } from '../flow-request.js';
import { flowAgain, type Outcome } from '../outcome.js';
import { openFlow } from '../steps.js';
import { buildLoginFlow } from './create.js';
import {
  completeSecondFactor,
  issueFirstFactorSession,
  requiredString,
  secondFactorSession,
  type LoginSubmission,
} from './login-submission.js';
import { loginSucceeded, secondFactorRequired } from './complete.js';
import { startReplacing, storeStartedFlow } from '../flow-start.js';
import { submitPasskey, submitSecurityKey } from './key-login.js';

/** An expired login flow is replaced by one for the same session state. */
async function restartLogin(ctx: FlowContext, old: Flow, message: UiText): Promise<Flow> {
  const auth = await ctx.auth();
  const start = startReplacing(old, message);
  const refresh = old.refresh && auth !== undefined;
  const aal = old.requestedAal === 'aal2' && auth ? 'aal2' : 'aal1';
  const replacement = await buildLoginFlow(ctx.services, { ...start, refresh, aal }, auth);
  return storeStartedFlow(ctx.idp.db.kysely, replacement, start);
}

/**
 * The method of a submission. As in Kratos, a body with a key's answer but no method is that key's method, and one
 * with an identifier but no method a password login.
 */
function methodOf(body: Record<string, unknown>): string | undefined {
  if (typeof body.method === 'string') return body.method;
  if (typeof body.passkey_login === 'string' && body.passkey_login !== '') return 'passkey';
  if (typeof body.webauthn_login === 'string' && body.webauthn_login !== '') return 'webauthn';
  if (body.identifier !== undefined || body.password_identifier !== undefined) return 'password';
  return undefined;
}

/** `POST /self-service/login?flow=` (docs/kratos-compatibility.md#submitting-a-login-flow). */
export async function submitLoginFlow(ctx: FlowContext): Promise<Outcome> {
  const opened = await openFlow(ctx, {
    restart: (old, message) => restartLogin(ctx, old, message),
    expiredMessage: messages.loginFlowExpired,
  });
  if (opened.kind !== 'opened') return opened;
  const { flow, body, json } = opened;
  if (flow.state === 'passed_challenge') {
    addFlowMessage(flow.ui, messages.loginAlreadyCompleted());
    return flowAgain(flow);
  }
  const auth = await ctx.auth();
  const upgrading = flow.refresh || flow.requestedAal === 'aal2';
  if (auth && !upgrading) {
    addFlowMessage(flow.ui, messages.generic(kratosErrors.sessionAlreadyAvailable('login').reason!));
    return { kind: 'browser_redirect', to: returnUrlOf(ctx.services, null), otherwise: flowAgain(flow) };
  }
  const submission: LoginSubmission = { ctx, flow, body, json, auth };
  switch (methodOf(body)) {
    case 'password':
      return submitPassword(submission);
    case 'totp':
      return submitTotp(submission);
    case 'lookup_secret':
      return submitLookupSecret(submission);
    case 'passkey':
      return submitPasskey(submission);
    case 'webauthn':
      return submitSecurityKey(submission);
    default:
      addFlowMessage(flow.ui, messages.noLoginStrategy());
      return flowAgain(flow);
  }
}

/** The identifier and password of a password submission, or undefined with node messages set. */
function passwordInput(submission: LoginSubmission): { identifier: string; password: string } | undefined {
  const { flow, body } = submission;
  if (body.identifier === undefined && body.password_identifier !== undefined)
    body.identifier = body.password_identifier;
  const identifier = requiredString(submission, 'identifier');
  const password = requiredString(submission, 'password');
  if (typeof body.identifier === 'string') setNodeValue(flow.ui, 'identifier', body.identifier);
  return identifier === undefined || password === undefined ? undefined : { identifier, password };
}

async function submitPassword(submission: LoginSubmission): Promise<Outcome> {
  const { ctx, flow } = submission;
  const input = passwordInput(submission);
  if (!input) return flowAgain(flow);
  const checked = await checkPassword(ctx, input);
  if (!checked.ok) {
    addFlowMessage(flow.ui, checked.message);
    return flowAgain(flow);
  }
  const { identity, credentials } = checked;
  const issued = await issueFirstFactorSession(submission, identity);
  ctx.idp.log.info({ event: 'login.success', identity: identity.id, method: 'password' }, 'first factor passed');
  await emitAuthEvent(ctx.idp, {
    type: 'login.success',
    method: 'password',
    identityId: identity.id,
    identifier: input.identifier,
    clientAddress: clientAddress(ctx.request),
  });
  const needsSecondFactor =
    availableAal(credentials) === 'aal2' && !issued.session.methods.some((m) => m.aal === 'aal2');
  if (needsSecondFactor) return secondFactorRequired(ctx, flow, issued);
  return loginSucceeded(ctx, flow, issued);
}

type PasswordCheck =
  | { ok: true; identity: IdentityRecord; credentials: CredentialRecord[] }
  | { ok: false; message: UiText };

/**
 * The password against the identity's, within the throttle: unknown identifiers, locked accounts and wrong
 * passwords cost the same and answer the same (4000006); failures are counted, logged and audited.
 */
async function checkPassword(
  ctx: FlowContext,
  input: { identifier: string; password: string },
): Promise<PasswordCheck> {
  const { throttle, passwords } = ctx.services;
  const { db, clock, config } = ctx.idp;
  const { identifier, password } = input;
  const { maxFailures, maxFailuresPerAddress, lockMs } = config.throttling;
  const idKey = identifierKey('login', identifier);
  const ipKey = clientAddressKey('login', clientAddress(ctx.request));
  const locked = await throttle.isLocked(idKey, ipKey);
  const identityId =
    identifier.length <= 320 ? await findIdentityIdByIdentifier(db.kysely, 'password', identifier) : undefined;
  const credentials = identityId ? await findCredentials(db.kysely, identityId) : [];
  const hashed = credentials.find((c) => c.type === 'password')?.config.hashed_password;

  let valid = false;
  if (typeof hashed === 'string' && password.length <= 1000) valid = await passwords.verify(password, hashed);
  else await passwords.dummyVerify(password.slice(0, 1000));
  if (!valid || locked) {
    const result = await throttle.recordFailure(idKey, maxFailures, lockMs, lockMs);
    await throttle.recordFailure(ipKey, maxFailuresPerAddress, lockMs, lockMs);
    ctx.idp.log.info(
      { event: 'login.failure', identity: identityId ?? null, locked: locked || result.locked },
      'sign-in failed',
    );
    await emitAuthEvent(ctx.idp, {
      type: result.locked && !locked ? 'login.locked' : 'login.failure',
      method: 'password',
      identityId: identityId ?? null,
      identifier,
      clientAddress: clientAddress(ctx.request),
    });
    return { ok: false, message: messages.invalidCredentials() };
  }
  const identity = await findIdentity(db.kysely, identityId!);
  if (!identity) return { ok: false, message: messages.invalidCredentials() };
  if (identity.state !== 'active') return { ok: false, message: messages.accountDisabled() };
  await throttle.reset(idKey);
  if (passwords.needsRehash(hashed as string)) {
    const passwordCredential = credentials.find((c) => c.type === 'password')!;
    const rehashed = { hashed_password: await passwords.hash(password) };
    await db.kysely
      .transaction()
      .execute((trx) => saveCredential(trx, clock, identity.id, 'password', rehashed, passwordCredential.identifiers));
  }
  return { ok: true, identity, credentials };
}

/** A refused second-factor code: counted against the identity (a lock after too many), audited, field emptied. */
async function refuseSecondFactor(
  submission: LoginSubmission,
  refusal: { method: 'totp' | 'lookup_secret'; locked: boolean; message: UiText },
): Promise<Outcome> {
  const { ctx, flow } = submission;
  const auth = submission.auth!;
  const { maxFailures, lockMs } = ctx.idp.config.throttling;
  const key = identifierKey('second_factor', auth.identity.id);
  const result = await ctx.services.throttle.recordFailure(key, maxFailures, lockMs, lockMs);
  if (refusal.method === 'totp')
    ctx.idp.log.info({ event: 'login.totp_failure', identity: auth.identity.id }, 'second factor failed');
  await emitAuthEvent(ctx.idp, {
    type: result.locked && !refusal.locked ? 'login.locked' : 'login.failure',
    method: refusal.method,
    identityId: auth.identity.id,
    clientAddress: clientAddress(ctx.request),
  });
  addFlowMessage(flow.ui, refusal.message);
  setNodeValue(flow.ui, refusal.method === 'totp' ? 'totp_code' : 'lookup_secret', '');
  return flowAgain(flow);
}

async function submitTotp(submission: LoginSubmission): Promise<Outcome> {
  const { ctx, flow } = submission;
  const auth = secondFactorSession(submission);
  const code = requiredString({ ...submission, json: true }, 'totp_code', 6);
  if (code === undefined) return flowAgain(flow);
  const credential = auth.credentials.find((c) => c.type === 'totp');
  const secret = secretOfTotpUrl(credential?.config.totp_url);
  if (!credential || !secret) {
    addFlowMessage(flow.ui, messages.noTotp());
    return flowAgain(flow);
  }
  const key = identifierKey('second_factor', auth.identity.id);
  const locked = await ctx.services.throttle.isLocked(key);
  const step = locked ? undefined : await verifyTotpCode(secret, code.trim(), credential.lastUsedStep);
  const claimed = step !== undefined && (await claimTotpStep(ctx.idp.db.kysely, credential.id, step));
  if (!claimed) return refuseSecondFactor(submission, { method: 'totp', locked, message: messages.invalidTotp() });
  await ctx.services.throttle.reset(key);
  return completeSecondFactor(submission, 'totp');
}

/** Marks a backup code used, once: a concurrent use of the same code loses. Returns the refusal, if any. */
async function spendLookupSecret(
  ctx: FlowContext,
  credential: CredentialRecord,
  match: RecoveryCode | undefined,
): Promise<UiText | undefined> {
  if (!match) return messages.invalidLookupSecret();
  if (match.used_at) return messages.lookupSecretAlreadyUsed();
  const { db, clock } = ctx.idp;
  const usedAt = new Date(Math.floor(clock.now().getTime() / 1000) * 1000).toISOString();
  const codes = recoveryCodesOf(credential.config);
  const updated = codes.map((c) => (c === match ? { ...c, used_at: usedAt } : c));
  const won = await updateCredentialConfigIfUnchanged(db.kysely, clock, credential, {
    ...credential.config,
    recovery_codes: updated,
  });
  return won ? undefined : messages.lookupSecretAlreadyUsed();
}

async function submitLookupSecret(submission: LoginSubmission): Promise<Outcome> {
  const { ctx, flow } = submission;
  const auth = secondFactorSession(submission);
  const submitted = requiredString({ ...submission, json: true }, 'lookup_secret');
  if (submitted === undefined) return flowAgain(flow);
  const credential = auth.credentials.find((c) => c.type === 'lookup_secret');
  const codes = credential ? recoveryCodesOf(credential.config) : [];
  if (!credential || codes.length === 0) {
    addFlowMessage(flow.ui, messages.noLookupSecrets());
    return flowAgain(flow);
  }
  const key = identifierKey('second_factor', auth.identity.id);
  const locked = await ctx.services.throttle.isLocked(key);
  const match = locked ? undefined : findRecoveryCode(codes, submitted);
  const failure = await spendLookupSecret(ctx, credential, match);
  if (failure) return refuseSecondFactor(submission, { method: 'lookup_secret', locked, message: failure });
  await ctx.services.throttle.reset(key);
  return completeSecondFactor(submission, 'lookup_secret');
}
