import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../../services.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import {
  claimTotpStep,
  findCredentials,
  findIdentity,
  findIdentityIdByIdentifier,
  saveCredential,
  updateCredentialConfigIfUnchanged,
} from '../../identities/identity-repository.js';
import { authenticate, type Authenticated } from '../../sessions/authenticate.js';
import { availableAal, type AuthenticationMethod } from '../../sessions/aal.js';
import { insertSession, upgradeSession } from '../../sessions/session-repository.js';
import { messages, type UiText } from '../../ui/messages.js';
import { addFlowMessage, addNodeMessage, clearMessages, setNodeValue } from '../../ui/nodes.js';
import { clientAddress, userAgent } from '../../http/client-info.js';
import { clientAddressKey, identifierKey } from '../../throttle/index.js';
import { emitAuthEvent } from '../../events.js';
import { secretOfTotpUrl, verifyTotpCode } from '../../credentials/totp/totp.js';
import { findRecoveryCode, recoveryCodesOf } from '../../credentials/lookup/lookup-secrets.js';
import { findFlow, insertFlow, isExpired, type Flow } from '../flow.js';
import { ensureCsrf, flowUiUrl, readSubmitBody, redirect, wantsRedirect, withBrowserErrors } from '../flow-http.js';
import { answerWithFlow } from '../flow-submit.js';
import { returnUrlOf } from '../flow-request.js';
import { buildLoginFlow } from './create.js';
import { answerLoginSuccess, answerSecondFactorRequired } from './complete.js';

type Body = Record<string, unknown>;

/** `POST /self-service/login?flow=` (docs/kratos-compatibility.md#submitting-a-login-flow). */
export async function submitLoginFlow(services: IdpServices, request: FastifyRequest, reply: FastifyReply) {
  const flowId = (request.query as Record<string, unknown>).flow;
  const flow = await findFlow(services.ctx.db.kysely, 'login', flowId);
  const asRedirect = wantsRedirect(request, flow, true);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    if (!flow) throw kratosErrors.flowNotFound();
    const { body, json } = readSubmitBody(request);
    const now = services.ctx.clock.now();
    const auth = await authenticate(services, request);

    if (isExpired(flow, now)) {
      const replacement = buildLoginFlow(
        services,
        {
          type: flow.type,
          requestUrl: flow.requestUrl,
          csrfToken: flow.csrfToken,
          returnTo: flow.returnTo,
          refresh: flow.refresh && auth !== undefined,
          aal: flow.requestedAal === 'aal2' && auth ? 'aal2' : 'aal1',
        },
        auth,
      );
      addFlowMessage(replacement.ui, messages.loginFlowExpired(new Date(flow.expiresAt), now));
      await insertFlow(services.ctx.db.kysely, replacement);
      if (asRedirect) return redirect(reply, flowUiUrl(services, replacement));
      throw kratosErrors.flowExpired(replacement.id, new Date(flow.expiresAt), now);
    }
    ensureCsrf(services, request, flow, body);
    clearMessages(flow.ui);

    if (flow.state === 'passed_challenge') {
      addFlowMessage(flow.ui, messages.loginAlreadyCompleted());
      return answerWithFlow(services, request, reply, flow);
    }

    const method =
      typeof body.method === 'string'
        ? body.method
        : body.identifier !== undefined || body.password_identifier !== undefined
          ? 'password'
          : undefined;
    const upgrading = flow.refresh || flow.requestedAal === 'aal2';
    if (auth && !upgrading) {
      if (asRedirect) return redirect(reply, returnUrlOf(services, null));
      addFlowMessage(flow.ui, messages.generic(kratosErrors.sessionAlreadyAvailable('login').reason!));
      return answerWithFlow(services, request, reply, flow);
    }
    switch (method) {
      case 'password':
        return submitPassword(services, request, reply, flow, body, json, auth);
      case 'totp':
        return submitTotp(services, request, reply, flow, body, auth);
      case 'lookup_secret':
        return submitLookupSecret(services, request, reply, flow, body, auth);
      default:
        addFlowMessage(flow.ui, messages.noLoginStrategy());
        return answerWithFlow(services, request, reply, flow);
    }
  });
}

/** A required string field: a node message for missing / empty / wrong-typed values, else the value. */
function requiredString(flow: Flow, body: Body, name: string, json: boolean, minLength = 1): string | undefined {
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

async function submitPassword(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: Body,
  json: boolean,
  auth: Authenticated | undefined,
) {
  const { ctx, throttle, passwords } = services;
  const { db, clock, config } = ctx;
  if (body.identifier === undefined && body.password_identifier !== undefined)
    body.identifier = body.password_identifier;
  const identifier = requiredString(flow, body, 'identifier', json);
  const password = requiredString(flow, body, 'password', json);
  if (typeof body.identifier === 'string') setNodeValue(flow.ui, 'identifier', body.identifier);
  if (identifier === undefined || password === undefined) return answerWithFlow(services, request, reply, flow);

  const { maxFailures, maxFailuresPerAddress, lockMs } = config.throttling;
  const idKey = identifierKey('login', identifier);
  const ipKey = clientAddressKey('login', clientAddress(request));
  const locked = (await throttle.isLocked(idKey)) || (await throttle.isLocked(ipKey));
  const identityId =
    identifier.length <= 320 ? await findIdentityIdByIdentifier(db.kysely, 'password', identifier) : undefined;
  const credentials = identityId ? await findCredentials(db.kysely, identityId) : [];
  const hashed = credentials.find((c) => c.type === 'password')?.config.hashed_password;

  // Unknown identifiers, locked accounts and wrong passwords cost the same and answer the same (4000006).
  let valid = false;
  if (typeof hashed === 'string' && password.length <= 1000) valid = await passwords.verify(password, hashed);
  else await passwords.dummyVerify(password.slice(0, 1000));
  if (!valid || locked) {
    const result = await throttle.recordFailure(idKey, maxFailures, lockMs, lockMs);
    await throttle.recordFailure(ipKey, maxFailuresPerAddress, lockMs, lockMs);
    ctx.log.info(
      { event: 'login.failure', identity: identityId ?? null, locked: locked || result.locked },
      'sign-in failed',
    );
    emitAuthEvent(ctx, {
      type: result.locked && !locked ? 'login.locked' : 'login.failure',
      method: 'password',
      identityId: identityId ?? null,
      identifier,
      clientAddress: clientAddress(request),
    });
    addFlowMessage(flow.ui, messages.invalidCredentials());
    return answerWithFlow(services, request, reply, flow);
  }
  const identity = await findIdentity(db.kysely, identityId!);
  if (!identity) {
    addFlowMessage(flow.ui, messages.invalidCredentials());
    return answerWithFlow(services, request, reply, flow);
  }
  if (identity.state !== 'active') {
    addFlowMessage(flow.ui, messages.accountDisabled());
    return answerWithFlow(services, request, reply, flow);
  }
  await throttle.reset(idKey);
  if (passwords.needsRehash(hashed as string)) {
    const passwordCredential = credentials.find((c) => c.type === 'password')!;
    await saveCredential(
      db.kysely,
      clock,
      identity.id,
      'password',
      { hashed_password: await passwords.hash(password) },
      passwordCredential.identifiers,
    );
  }

  const method: AuthenticationMethod = { method: 'password', aal: 'aal1', completed_at: clock.now().toISOString() };
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
          ipAddress: clientAddress(request),
          userAgent: userAgent(request),
        });
  ctx.log.info({ event: 'login.success', identity: identity.id, method: 'password' }, 'first factor passed');
  emitAuthEvent(ctx, {
    type: 'login.success',
    method: 'password',
    identityId: identity.id,
    identifier,
    clientAddress: clientAddress(request),
  });
  const result = { ...issued, identity };
  const needsSecondFactor =
    availableAal(credentials) === 'aal2' && !issued.session.methods.some((m) => m.aal === 'aal2');
  if (needsSecondFactor) return answerSecondFactorRequired(services, request, reply, flow, result);
  return answerLoginSuccess(services, request, reply, flow, result);
}

async function secondFactorPrecheck(flow: Flow, auth: Authenticated | undefined): Promise<Authenticated> {
  if (!auth) throw kratosErrors.sessionAal1Required();
  if (flow.identityId === null) flow.identityId = auth.identity.id;
  return auth;
}

async function submitTotp(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: Body,
  maybeAuth: Authenticated | undefined,
) {
  const auth = await secondFactorPrecheck(flow, maybeAuth);
  const { ctx, throttle } = services;
  const code = requiredString(flow, body, 'totp_code', true, 6);
  if (code === undefined) return answerWithFlow(services, request, reply, flow);
  const credential = auth.credentials.find((c) => c.type === 'totp');
  const secret = secretOfTotpUrl(credential?.config.totp_url);
  if (!credential || !secret) {
    addFlowMessage(flow.ui, messages.noTotp());
    return answerWithFlow(services, request, reply, flow);
  }
  const key = identifierKey('second_factor', auth.identity.id);
  const { maxFailures, lockMs } = ctx.config.throttling;
  const locked = await throttle.isLocked(key);
  const step = locked ? undefined : await verifyTotpCode(secret, code.trim(), credential.lastUsedStep);
  const claimed = step !== undefined && (await claimTotpStep(ctx.db.kysely, credential.id, step));
  if (!claimed) {
    const result = await throttle.recordFailure(key, maxFailures, lockMs, lockMs);
    ctx.log.info({ event: 'login.totp_failure', identity: auth.identity.id }, 'second factor failed');
    emitAuthEvent(ctx, {
      type: result.locked && !locked ? 'login.locked' : 'login.failure',
      method: 'totp',
      identityId: auth.identity.id,
      clientAddress: clientAddress(request),
    });
    addFlowMessage(flow.ui, messages.invalidTotp());
    setNodeValue(flow.ui, 'totp_code', '');
    return answerWithFlow(services, request, reply, flow);
  }
  await throttle.reset(key);
  return completeSecondFactor(services, request, reply, flow, auth, 'totp');
}

async function submitLookupSecret(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: Body,
  maybeAuth: Authenticated | undefined,
) {
  const auth = await secondFactorPrecheck(flow, maybeAuth);
  const { ctx, throttle } = services;
  const submitted = requiredString(flow, body, 'lookup_secret', true);
  if (submitted === undefined) return answerWithFlow(services, request, reply, flow);
  const credential = auth.credentials.find((c) => c.type === 'lookup_secret');
  const codes = credential ? recoveryCodesOf(credential.config) : [];
  if (!credential || codes.length === 0) {
    addFlowMessage(flow.ui, messages.noLookupSecrets());
    return answerWithFlow(services, request, reply, flow);
  }
  const key = identifierKey('second_factor', auth.identity.id);
  const { maxFailures, lockMs } = ctx.config.throttling;
  const locked = await throttle.isLocked(key);
  const match = locked ? undefined : findRecoveryCode(codes, submitted);
  let failure: UiText | undefined;
  if (!match) failure = messages.invalidLookupSecret();
  else if (match.used_at) failure = messages.lookupSecretAlreadyUsed();
  else {
    const usedAt = new Date(Math.floor(ctx.clock.now().getTime() / 1000) * 1000).toISOString();
    const updated = codes.map((c) => (c === match ? { ...c, used_at: usedAt } : c));
    const won = await updateCredentialConfigIfUnchanged(ctx.db.kysely, ctx.clock, credential, {
      ...credential.config,
      recovery_codes: updated,
    });
    if (!won) failure = messages.lookupSecretAlreadyUsed();
  }
  if (failure) {
    const result = await throttle.recordFailure(key, maxFailures, lockMs, lockMs);
    emitAuthEvent(ctx, {
      type: result.locked && !locked ? 'login.locked' : 'login.failure',
      method: 'lookup_secret',
      identityId: auth.identity.id,
      clientAddress: clientAddress(request),
    });
    addFlowMessage(flow.ui, failure);
    setNodeValue(flow.ui, 'lookup_secret', '');
    return answerWithFlow(services, request, reply, flow);
  }
  await throttle.reset(key);
  return completeSecondFactor(services, request, reply, flow, auth, 'lookup_secret');
}

async function completeSecondFactor(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  auth: Authenticated,
  method: 'totp' | 'lookup_secret',
) {
  const { db, clock, config, log } = services.ctx;
  const identity = auth.identity;
  const upgraded = await upgradeSession(
    db.kysely,
    clock,
    auth.session,
    [{ method, aal: 'aal2', completed_at: clock.now().toISOString() }],
    {
      reauthenticated: false,
      lifespanMs: config.lifespans.sessionMs,
    },
  );
  log.info({ event: 'login.success', identity: identity.id, method }, 'second factor passed');
  emitAuthEvent(services.ctx, {
    type: 'login.success',
    method,
    identityId: identity.id,
    clientAddress: clientAddress(request),
  });
  return answerLoginSuccess(services, request, reply, flow, { ...upgraded, identity });
}
