import { IdentityConflictError } from '../../identities/identity-errors.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import { publicUrlOf, uiUrl } from '../../http/return-to.js';
import {
  claimTotpStep,
  deleteCredential,
  findCredential,
  saveCredential,
  updateIdentity,
} from '../../identities/identity-repository.js';
import { normaliseEmail, validateTraits } from '../../identities/identity-schema.js';
import { ensureHighestAvailableAal } from '../../sessions/session-routes.js';
import { renewSessionToken } from '../../sessions/session-repository.js';
import { messages } from '../../ui/messages.js';
import { addFlowMessage, addNodeMessage, setNodeValue } from '../../ui/nodes.js';
import { newRecoveryCodes, type RecoveryCode } from '../../credentials/lookup/lookup-secrets.js';
import { secretOfTotpUrl, verifyTotpCode } from '../../credentials/totp/totp.js';
import type { FlowContext } from '../flow-context.js';
import { failWith, flowAgain, type Outcome } from '../outcome.js';
import { openFlow, requireFlow } from '../steps.js';
import { queueChangeNotice } from './change-notice.js';
import { settingsNodes } from './nodes.js';
import { startSettingsFlow } from './create.js';
import { startReplacing } from '../flow-start.js';
import {
  addSecondFactorToSession,
  credentialChanged,
  ensurePrivileged,
  settingsAgain,
  settingsSaved,
  type SettingsSubmission,
} from './settings-submission.js';
import { submitPasskeySettings, submitSecurityKeySettings } from './key-settings.js';

const isTrue = (value: unknown) => value === true || value === 'true';

type Method = (submission: SettingsSubmission) => Promise<Outcome>;

const filled = (value: unknown) => typeof value === 'string' && value !== '';

/**
 * The method of a submission. The key scripts submit their form without a button, so, as in Kratos, a key's answer
 * or a remove value names its method when `method` is absent.
 */
function settingsMethodOf(body: Record<string, unknown>): string | undefined {
  if (typeof body.method === 'string') return body.method;
  if (filled(body.webauthn_register) || filled(body.webauthn_remove)) return 'webauthn';
  if (filled(body.passkey_settings_register) || filled(body.passkey_remove)) return 'passkey';
  return undefined;
}

const methods: Record<string, Method> = {
  profile: (submission) => submitProfile(submission),
  password: (submission) => submitPassword(submission),
  totp: (submission) => submitTotp(submission),
  lookup_secret: (submission) => submitLookupSecret(submission),
  webauthn: submitSecurityKeySettings,
  passkey: submitPasskeySettings,
};

/** `POST /self-service/settings?flow=` (docs/kratos-compatibility.md#settings). */
export async function submitSettingsFlow(ctx: FlowContext): Promise<Outcome> {
  const { config } = ctx.idp;
  const auth = await ctx.auth();
  if (!auth) {
    const error = kratosErrors.noSessionCredentials('A valid Ory Session Cookie or Ory Session Token is missing.');
    return { kind: 'browser_redirect', to: uiUrl(config, 'login'), status: 302, otherwise: failWith(error) };
  }
  const found = requireFlow(ctx);
  if (found.identityId !== auth.identity.id) throw kratosErrors.identityMismatch(true);
  ensureHighestAvailableAal(ctx.services, auth, publicUrlOf(config, '/self-service/settings', { flow: found.id }));
  const opened = await openFlow(ctx, {
    restart: (old, message) => startSettingsFlow(ctx.services, auth, startReplacing(old, message)),
    expiredMessage: messages.settingsFlowExpired,
  });
  if (opened.kind !== 'opened') return opened;
  const { flow, body } = opened;
  flow.state = 'show_form';
  const name = settingsMethodOf(body);
  const method = name !== undefined && Object.hasOwn(methods, name) ? methods[name] : undefined;
  if (!method) {
    addFlowMessage(flow.ui, messages.noSettingsStrategy());
    return flowAgain(flow, 400, auth.identity);
  }
  return method({ ctx, flow, body, auth });
}

async function submitProfile(submission: SettingsSubmission): Promise<Outcome> {
  const { ctx, flow, body, auth } = submission;
  const { db, clock } = ctx.idp;
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
    return settingsAgain(submission);
  }
  const traits = result.traits;
  const newAddress = normaliseEmail(traits.email) !== normaliseEmail(auth.identity.traits.email);
  if (newAddress) ensurePrivileged(submission);
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await updateIdentity(trx, clock, auth.identity.id, { traits });
      // The notice goes to the old address: the one a person who did not make the change still reads.
      if (newAddress)
        await queueChangeNotice(ctx.services, trx, {
          traits: auth.identity.traits,
          change: 'email',
          newEmail: traits.email,
        });
    });
  } catch (error) {
    if (error instanceof IdentityConflictError) {
      addFlowMessage(flow.ui, messages.duplicateIdentifier());
      return settingsAgain(submission);
    }
    throw error;
  }
  return settingsSaved(submission);
}

async function submitPassword(submission: SettingsSubmission): Promise<Outcome> {
  const { ctx, flow, body, auth } = submission;
  const { passwords, passwordPolicy } = ctx.services;
  const { db, clock, log } = ctx.idp;
  const password = body.password;
  if (typeof password !== 'string' || password === '') {
    addNodeMessage(
      flow.ui,
      'password',
      password === undefined || password === ''
        ? messages.missingProperty('password')
        : messages.wrongType('string', typeof password),
    );
    return settingsAgain(submission);
  }
  ensurePrivileged(submission);
  const violation = await passwordPolicy.validate(password, [auth.identity.traits.email]);
  if (violation) {
    addNodeMessage(flow.ui, 'password', violation);
    return settingsAgain(submission);
  }
  const current = auth.credentials.find((c) => c.type === 'password')?.config.hashed_password;
  if (typeof current === 'string' && (await passwords.verify(password, current))) {
    addNodeMessage(flow.ui, 'password', messages.samePassword());
    return settingsAgain(submission);
  }
  const hashed = await passwords.hash(password);
  await db.kysely.transaction().execute(async (trx) => {
    await saveCredential(trx, clock, auth.identity.id, 'password', { hashed_password: hashed }, [
      normaliseEmail(auth.identity.traits.email),
    ]);
    // The first password of an invited account is no change to report.
    if (typeof current === 'string')
      await queueChangeNotice(ctx.services, trx, { traits: auth.identity.traits, change: 'password' });
    const change = typeof current === 'string' ? 'credential.changed' : 'credential.added';
    await credentialChanged(submission, trx, change, 'password');
  });
  log.info({ event: 'settings.password_changed', identity: auth.identity.id }, 'password changed');
  await renewTokenAfterPasswordChange(submission);
  return settingsSaved(submission);
}

/**
 * A changed password gives a browser's session a new token in a new cookie (ASVS 7.2.4), so a token captured before
 * the change soon stops working; the old one keeps working for a short grace window for requests already under way.
 * A client that sent a token keeps it: Kratos never hands out a new token from settings, so a native app written
 * for Kratos would not pick one up and would be signed out (docs/security.md#21-a-new-token-at-every-sign-in).
 */
async function renewTokenAfterPasswordChange(submission: SettingsSubmission): Promise<void> {
  const { ctx, auth } = submission;
  const { db, clock } = ctx.idp;
  if (auth.via !== 'cookie') return;
  const token = await renewSessionToken(db.kysely, clock, auth.session.id);
  ctx.effects.setSession(token, new Date(auth.session.expiresAt), clock.now());
}

async function submitTotp(submission: SettingsSubmission): Promise<Outcome> {
  const { ctx, flow, body, auth } = submission;
  const { db, clock, log } = ctx.idp;
  ensurePrivileged(submission);
  if (isTrue(body.totp_unlink)) {
    await db.kysely.transaction().execute(async (trx) => {
      if (await deleteCredential(trx, clock, auth.identity.id, 'totp')) {
        await queueChangeNotice(ctx.services, trx, { traits: auth.identity.traits, change: 'totp_unlinked' });
        await credentialChanged(submission, trx, 'credential.removed', 'totp');
      }
    });
    log.info({ event: 'settings.totp_unlinked', identity: auth.identity.id }, 'authenticator removed');
    return settingsSaved(submission);
  }
  const code = body.totp_code;
  if (typeof code !== 'string' || code === '') {
    addNodeMessage(flow.ui, 'totp_code', messages.missingProperty('totp_code'));
    return settingsAgain(submission);
  }
  const url = flow.internal.totp_url as string | undefined;
  const secret = secretOfTotpUrl(url);
  const step = secret ? await verifyTotpCode(secret, code.trim(), null) : undefined;
  if (!url || step === undefined) {
    addNodeMessage(flow.ui, 'totp_code', messages.invalidTotp());
    return settingsAgain(submission);
  }
  await db.kysely.transaction().execute(async (trx) => {
    await saveCredential(trx, clock, auth.identity.id, 'totp', { totp_url: url }, [auth.identity.id]);
    // The enrolment code must not work again as the first login code.
    const credential = await findCredential(trx, auth.identity.id, 'totp');
    if (credential) await claimTotpStep(trx, credential.id, step);
    await queueChangeNotice(ctx.services, trx, { traits: auth.identity.traits, change: 'totp_linked' });
    await credentialChanged(submission, trx, 'credential.added', 'totp');
  });
  await addSecondFactorToSession(submission, 'totp');
  log.info({ event: 'settings.totp_enrolled', identity: auth.identity.id }, 'authenticator enrolled');
  return settingsSaved(submission);
}

async function submitLookupSecret(submission: SettingsSubmission): Promise<Outcome> {
  const { ctx, flow, body, auth } = submission;
  const { db, clock } = ctx.idp;
  ensurePrivileged(submission);
  const stored = auth.credentials.find((c) => c.type === 'lookup_secret');
  const rerender = async () => {
    flow.ui.nodes = await settingsNodes(ctx.services, { flow, identity: auth.identity, credentials: auth.credentials });
    return settingsAgain(submission, 200);
  };
  if (isTrue(body.lookup_secret_reveal)) {
    if (!stored) {
      addFlowMessage(flow.ui, messages.generic('Can not reveal lookup codes because you have none.'));
      return settingsAgain(submission);
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
      return settingsAgain(submission);
    }
    await db.kysely.transaction().execute(async (trx) => {
      await saveCredential(trx, clock, auth.identity.id, 'lookup_secret', { recovery_codes: pending }, [
        auth.identity.id,
      ]);
      await credentialChanged(submission, trx, 'credential.added', 'lookup_secret');
    });
    await addSecondFactorToSession(submission, 'lookup_secret');
    return settingsSaved(submission);
  }
  if (isTrue(body.lookup_secret_disable)) {
    await db.kysely.transaction().execute(async (trx) => {
      if (await deleteCredential(trx, clock, auth.identity.id, 'lookup_secret')) {
        await queueChangeNotice(ctx.services, trx, { traits: auth.identity.traits, change: 'backup_codes_disabled' });
        await credentialChanged(submission, trx, 'credential.removed', 'lookup_secret');
      }
    });
    return settingsSaved(submission);
  }
  addFlowMessage(flow.ui, messages.noSettingsStrategy());
  return settingsAgain(submission);
}
