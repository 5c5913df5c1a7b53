import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdpServices } from '../../services.js';
import { HttpError } from '../../errors/herodot.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { publicUrlOf, uiUrl } from '../../http/return-to.js';
import {
  claimTotpStep,
  deleteCredential,
  findCredential,
  findCredentials,
  findIdentity,
  saveCredential,
  updateIdentity,
} from '../../identities/identity-repository.js';
import { normaliseEmail, validateTraits } from '../../identities/identity-schema.js';
import { authenticate, type Authenticated } from '../../sessions/authenticate.js';
import { ensureHighestAvailableAal } from '../../sessions/session-routes.js';
import { upgradeSession } from '../../sessions/session-repository.js';
import { setSessionCookie } from '../../http/cookies.js';
import { messages } from '../../ui/messages.js';
import { addFlowMessage, addNodeMessage, clearMessages, setNodeValue } from '../../ui/nodes.js';
import { newRecoveryCodes, type RecoveryCode } from '../../credentials/lookup/lookup-secrets.js';
import { secretOfTotpUrl, verifyTotpCode } from '../../credentials/totp/totp.js';
import { findFlow, isExpired, saveFlow, type Flow } from '../flow.js';
import {
  ensureCsrf,
  flowUiUrl,
  readSubmitBody,
  redirect,
  sendFlow,
  wantsRedirect,
  withBrowserErrors,
} from '../flow-http.js';
import { answerWithFlow } from '../flow-submit.js';
import { returnUrlOf } from '../flow-request.js';
import { queueChangeNotice } from './change-notice.js';
import { settingsNodes } from './nodes.js';
import { startSettingsFlow } from './create.js';

type Body = Record<string, unknown>;
const isTrue = (value: unknown) => value === true || value === 'true';

/** `POST /self-service/settings?flow=` (docs/kratos-compatibility.md#settings). */
export async function submitSettingsFlow(services: IdpServices, request: FastifyRequest, reply: FastifyReply) {
  const { ctx } = services;
  const flow = await findFlow(ctx.db.kysely, 'settings', (request.query as Record<string, unknown>).flow);
  const asRedirect = wantsRedirect(request, flow, true);
  return withBrowserErrors(services, request, reply, asRedirect, async () => {
    const auth = await authenticate(services, request);
    if (!auth) {
      if (asRedirect) return redirect(reply, uiUrl(ctx.config, 'login'), 302);
      throw kratosErrors.noSessionCredentials('A valid Ory Session Cookie or Ory Session Token is missing.');
    }
    if (!flow) throw kratosErrors.flowNotFound();
    if (flow.identityId !== auth.identity.id) throw kratosErrors.identityMismatch(true);
    const settingsUrl = publicUrlOf(ctx.config, '/self-service/settings', { flow: flow.id });
    ensureHighestAvailableAal(services, auth, settingsUrl);
    const { body } = readSubmitBody(request);
    const now = ctx.clock.now();
    if (isExpired(flow, now)) {
      const replacement = await startSettingsFlow(services, auth, {
        type: flow.type,
        requestUrl: flow.requestUrl,
        csrfToken: flow.csrfToken,
        returnTo: flow.returnTo,
        message: messages.settingsFlowExpired(new Date(flow.expiresAt), now),
      });
      if (asRedirect) return redirect(reply, flowUiUrl(services, replacement));
      throw kratosErrors.flowExpired(replacement.id, new Date(flow.expiresAt), now);
    }
    ensureCsrf(services, request, flow, body);
    clearMessages(flow.ui);
    flow.state = 'show_form';

    const method = body.method;
    const handler =
      method === 'profile'
        ? submitProfile
        : method === 'password'
          ? submitPassword
          : method === 'totp'
            ? submitTotp
            : method === 'lookup_secret'
              ? submitLookupSecret
              : undefined;
    if (!handler) {
      addFlowMessage(flow.ui, messages.noSettingsStrategy());
      return answerWithFlow(services, request, reply, flow, 400, auth.identity);
    }
    return handler(services, request, reply, flow, body, auth);
  });
}

/**
 * Changes of password, address and second factor need a recent sign-in
 * (docs/kratos-compatibility.md#privileged-session).
 */
function ensurePrivileged(services: IdpServices, flow: Flow, auth: Authenticated): void {
  const { config, clock } = services.ctx;
  const fresh =
    new Date(auth.session.authenticatedAt).getTime() + config.lifespans.privilegedSessionMs > clock.now().getTime();
  if (!fresh) {
    const back = publicUrlOf(config, '/self-service/settings', { flow: flow.id });
    throw kratosErrors.sessionRefreshRequired(
      publicUrlOf(config, '/self-service/login/browser', { refresh: 'true', return_to: back }),
    );
  }
}

async function answerSuccess(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  auth: Authenticated,
) {
  const { ctx } = services;
  const identity = (await findIdentity(ctx.db.kysely, auth.identity.id))!;
  const credentials = await findCredentials(ctx.db.kysely, identity.id);
  delete flow.internal.pending_recovery_codes;
  delete flow.internal.reveal_recovery_codes;
  delete flow.internal.totp_url;
  delete flow.internal.continue_with;
  flow.state = 'success';
  flow.ui.nodes = await settingsNodes(services, flow, identity, credentials);
  addFlowMessage(flow.ui, messages.changesSaved());
  // Kratos (settings/hook.go) tells browser clients where to go next: the return_to, else the settings UI with
  // this flow; API clients get no redirect.
  if (flow.type === 'browser') {
    const next = flow.returnTo ? returnUrlOf(services, flow.returnTo) : flowUiUrl(services, flow);
    flow.internal.continue_with = [{ action: 'redirect_browser_to', redirect_browser_to: next }];
  }
  await saveFlow(ctx.db.kysely, ctx.clock, flow);
  if (wantsRedirect(request, flow, true)) {
    return redirect(reply, flow.returnTo ? returnUrlOf(services, flow.returnTo) : flowUiUrl(services, flow));
  }
  return sendFlow(services, reply, 200, flow, identity);
}

async function submitProfile(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: Body,
  auth: Authenticated,
) {
  const { ctx } = services;
  const raw = body.traits;
  const result = validateTraits(raw);
  for (const name of ['traits.email', 'traits.name.first', 'traits.name.last']) {
    const path = name.split('.').slice(1);
    let value: unknown = raw;
    for (const part of path)
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    if (typeof value === 'string') setNodeValue(flow.ui, name, value);
  }
  if (!result.traits) {
    for (const error of result.errors) {
      if (error.node) addNodeMessage(flow.ui, error.node, error.message);
      else addFlowMessage(flow.ui, error.message);
    }
    return answerWithFlow(services, request, reply, flow, 400, auth.identity);
  }
  const newAddress = normaliseEmail(result.traits.email) !== normaliseEmail(auth.identity.traits.email);
  if (newAddress) ensurePrivileged(services, flow, auth);
  try {
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await updateIdentity(trx, ctx.clock, auth.identity.id, { traits: result.traits });
      // The notice goes to the old address: the one a person who did not make the change still reads.
      if (newAddress)
        await queueChangeNotice(services, trx, auth.identity.traits, 'email', { newEmail: result.traits.email });
    });
  } catch (error) {
    if (error instanceof HttpError && error.code === 409) {
      addFlowMessage(flow.ui, messages.duplicateIdentifier());
      return answerWithFlow(services, request, reply, flow, 400, auth.identity);
    }
    throw error;
  }
  return answerSuccess(services, request, reply, flow, auth);
}

async function submitPassword(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: Body,
  auth: Authenticated,
) {
  const { ctx, passwords, passwordPolicy } = services;
  const password = body.password;
  if (typeof password !== 'string' || password === '') {
    addNodeMessage(
      flow.ui,
      'password',
      password === undefined || password === ''
        ? messages.missingProperty('password')
        : messages.wrongType('string', typeof password),
    );
    return answerWithFlow(services, request, reply, flow, 400, auth.identity);
  }
  ensurePrivileged(services, flow, auth);
  const violation = await passwordPolicy.validate(password, [auth.identity.traits.email]);
  if (violation) {
    addNodeMessage(flow.ui, 'password', violation);
    return answerWithFlow(services, request, reply, flow, 400, auth.identity);
  }
  const current = auth.credentials.find((c) => c.type === 'password')?.config.hashed_password;
  if (typeof current === 'string' && (await passwords.verify(password, current))) {
    addNodeMessage(flow.ui, 'password', messages.samePassword());
    return answerWithFlow(services, request, reply, flow, 400, auth.identity);
  }
  const hashed = await passwords.hash(password);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await saveCredential(trx, ctx.clock, auth.identity.id, 'password', { hashed_password: hashed }, [
      normaliseEmail(auth.identity.traits.email),
    ]);
    // The first password of an invited account is no change to report.
    if (typeof current === 'string') await queueChangeNotice(services, trx, auth.identity.traits, 'password');
  });
  ctx.log.info({ event: 'settings.password_changed', identity: auth.identity.id }, 'password changed');
  return answerSuccess(services, request, reply, flow, auth);
}

async function addSecondFactorToSession(
  services: IdpServices,
  reply: FastifyReply,
  auth: Authenticated,
  method: 'totp' | 'lookup_secret',
) {
  const { db, clock, config } = services.ctx;
  if (auth.session.methods.some((m) => m.aal === 'aal2')) return;
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
  if (auth.via === 'cookie')
    setSessionCookie(reply, config, upgraded.token, new Date(upgraded.session.expiresAt), clock.now());
  else reply.header('X-Session-Token', upgraded.token);
}

async function submitTotp(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: Body,
  auth: Authenticated,
) {
  const { ctx } = services;
  ensurePrivileged(services, flow, auth);
  if (isTrue(body.totp_unlink)) {
    await ctx.db.kysely.transaction().execute(async (trx) => {
      if (await deleteCredential(trx, ctx.clock, auth.identity.id, 'totp'))
        await queueChangeNotice(services, trx, auth.identity.traits, 'totp_unlinked');
    });
    ctx.log.info({ event: 'settings.totp_unlinked', identity: auth.identity.id }, 'authenticator removed');
    return answerSuccess(services, request, reply, flow, auth);
  }
  const code = body.totp_code;
  if (typeof code !== 'string' || code === '') {
    addNodeMessage(flow.ui, 'totp_code', messages.missingProperty('totp_code'));
    return answerWithFlow(services, request, reply, flow, 400, auth.identity);
  }
  const url = flow.internal.totp_url as string | undefined;
  const secret = secretOfTotpUrl(url);
  const step = secret ? await verifyTotpCode(secret, code.trim(), null) : undefined;
  if (!url || step === undefined) {
    addNodeMessage(flow.ui, 'totp_code', messages.invalidTotp());
    return answerWithFlow(services, request, reply, flow, 400, auth.identity);
  }
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await saveCredential(trx, ctx.clock, auth.identity.id, 'totp', { totp_url: url }, [auth.identity.id]);
    // The enrolment code must not work again as the first login code.
    const credential = await findCredential(trx, auth.identity.id, 'totp');
    if (credential) await claimTotpStep(trx, credential.id, step);
    await queueChangeNotice(services, trx, auth.identity.traits, 'totp_linked');
  });
  await addSecondFactorToSession(services, reply, auth, 'totp');
  ctx.log.info({ event: 'settings.totp_enrolled', identity: auth.identity.id }, 'authenticator enrolled');
  return answerSuccess(services, request, reply, flow, auth);
}

async function submitLookupSecret(
  services: IdpServices,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: Body,
  auth: Authenticated,
) {
  const { ctx } = services;
  ensurePrivileged(services, flow, auth);
  const stored = auth.credentials.find((c) => c.type === 'lookup_secret');
  const rerender = async () => {
    flow.ui.nodes = await settingsNodes(services, flow, auth.identity, auth.credentials);
    return answerWithFlow(services, request, reply, flow, 200, auth.identity);
  };
  if (isTrue(body.lookup_secret_reveal)) {
    if (!stored) {
      addFlowMessage(flow.ui, messages.generic('Can not reveal lookup codes because you have none.'));
      return answerWithFlow(services, request, reply, flow, 400, auth.identity);
    }
    flow.internal.reveal_recovery_codes = true;
    return rerender();
  }
  if (isTrue(body.lookup_secret_regenerate)) {
    flow.internal.pending_recovery_codes = newRecoveryCodes();
    return rerender();
  }
  if (isTrue(body.lookup_secret_confirm)) {
    const pending = flow.internal.pending_recovery_codes as RecoveryCode[] | undefined;
    if (!pending) {
      addFlowMessage(
        flow.ui,
        messages.generic('You must (re-)generate recovery backup codes before you can save them.'),
      );
      return answerWithFlow(services, request, reply, flow, 400, auth.identity);
    }
    await saveCredential(ctx.db.kysely, ctx.clock, auth.identity.id, 'lookup_secret', { recovery_codes: pending }, [
      auth.identity.id,
    ]);
    await addSecondFactorToSession(services, reply, auth, 'lookup_secret');
    return answerSuccess(services, request, reply, flow, auth);
  }
  if (isTrue(body.lookup_secret_disable)) {
    await ctx.db.kysely.transaction().execute(async (trx) => {
      if (await deleteCredential(trx, ctx.clock, auth.identity.id, 'lookup_secret'))
        await queueChangeNotice(services, trx, auth.identity.traits, 'backup_codes_disabled');
    });
    return answerSuccess(services, request, reply, flow, auth);
  }
  addFlowMessage(flow.ui, messages.noSettingsStrategy());
  return answerWithFlow(services, request, reply, flow, 400, auth.identity);
}
