import { deleteCredential, saveCredential, type CredentialRecord } from '../../identities/identity-repository.js';
import { NAME_PATTERN, normaliseEmail } from '../../identities/identity-schema.js';
import { hasHiddenCharacters } from '../../identities/hidden-characters.js';
import {
  finishRegistration,
  parseRegistrationAnswer,
  relyingParty,
  claimCeremonyState,
} from '../../credentials/webauthn/ceremonies.js';
import {
  countFirstFactors,
  hexIdOf,
  keyConfigOf,
  toBase64,
  type KeyKind,
  type StoredWebAuthnKey,
} from '../../credentials/webauthn/credential-config.js';
import { messages, type UiText } from '../../ui/messages.js';
import { addFlowMessage, addNodeMessage } from '../../ui/nodes.js';
import type { Outcome } from '../outcome.js';
import { queueChangeNotice } from './change-notice.js';
import { settingsNodes } from './nodes.js';
import { securityKeyUserHandle } from './key-nodes.js';
import {
  addSecondFactorToSession,
  credentialChanged,
  ensurePrivileged,
  settingsAgain,
  settingsSaved,
  type SettingsSubmission,
} from './settings-submission.js';

/**
 * Adding and removing security keys (`webauthn`) and passkeys (`passkey`) in settings, as Kratos' strategies do
 * (docs/kratos-compatibility.md#passkeys-and-security-keys).
 */

const filled = (value: unknown): value is string => typeof value === 'string' && value !== '';
const DISPLAY_NAME_MAX = 100;

/** The form again, with fresh challenges (the last one is used up) and the message on the flow or on a node. */
async function refused(submission: SettingsSubmission, message: UiText, node?: string): Promise<Outcome> {
  const { ctx, flow, auth } = submission;
  flow.ui.nodes = await settingsNodes(ctx.services, { flow, identity: auth.identity, credentials: auth.credentials });
  if (node) addNodeMessage(flow.ui, node, message);
  else addFlowMessage(flow.ui, message);
  return settingsAgain(submission);
}

/** Whether a key with this id is on the identity already, as either kind. */
const alreadyRegistered = (credentials: CredentialRecord[], key: StoredWebAuthnKey) =>
  [...keyConfigOf(credentials, 'webauthn').credentials, ...keyConfigOf(credentials, 'passkey').credentials].some(
    (k) => k.id === key.id,
  );

/** Checks the browser's answer to the flow's registration challenge; the new key or the refusal. */
async function newKey(
  submission: SettingsSubmission,
  kind: KeyKind,
  answerText: string,
  displayName: string,
): Promise<{ key: StoredWebAuthnKey; userHandle: string } | { refusal: Outcome }> {
  const { ctx, flow, auth } = submission;
  const state = await claimCeremonyState(ctx.idp, flow, kind);
  const answer = parseRegistrationAnswer(answerText);
  if (!answer) return { refusal: await refused(submission, messages.generic('Unable to parse WebAuthn response.')) };
  const key =
    state &&
    (await finishRegistration(relyingParty(ctx.idp), state, answer, {
      displayName,
      passwordless: kind === 'passkey',
      now: ctx.idp.clock.now(),
    }));
  if (!state || !key) return { refusal: await refused(submission, messages.invalidWebAuthn()) };
  if (alreadyRegistered(auth.credentials, key)) {
    const node = kind === 'passkey' ? 'passkey_settings_register' : 'webauthn_register';
    return { refusal: await refused(submission, messages.keyAlreadyRegistered(), node) };
  }
  return { key, userHandle: state.user_id ?? '' };
}

/**
 * Removes the key named by its hex id; refused when it is not there, or when it is the last way to sign in
 * (Kratos' `ErrNotEnoughCredentials`, on the `webauthn_remove` field for both kinds).
 */
async function removeKey(submission: SettingsSubmission, kind: KeyKind, hexId: string): Promise<Outcome> {
  const { ctx, auth } = submission;
  const { db, clock, log } = ctx.idp;
  const credential = auth.credentials.find((c) => c.type === kind);
  const config = keyConfigOf(auth.credentials, kind);
  const target = config.credentials.find((key) => hexIdOf(key) === hexId.toLowerCase());
  if (!credential || !target) {
    const reason = !credential
      ? 'You tried to remove a WebAuthn but you have no WebAuthn set up.'
      : kind === 'passkey'
        ? 'You tried to remove a passkey which does not exist.'
        : 'You tried to remove a WebAuthn credential which does not exist.';
    return refused(submission, messages.generic(reason));
  }
  const needed = kind === 'passkey' || target.is_passwordless;
  if (needed && countFirstFactors(auth.credentials) < 2)
    return refused(submission, messages.lastCredential(), 'webauthn_remove');
  const remaining = config.credentials.filter((key) => key !== target);
  await db.kysely.transaction().execute(async (trx) => {
    if (remaining.length === 0) await deleteCredential(trx, clock, auth.identity.id, kind);
    else
      await saveCredential(
        trx,
        clock,
        auth.identity.id,
        kind,
        { ...config, credentials: remaining },
        credential.identifiers,
      );
    const change = kind === 'passkey' ? 'passkey_removed' : 'security_key_removed';
    await queueChangeNotice(ctx.services, trx, { traits: auth.identity.traits, change });
    await credentialChanged(submission, trx, 'credential.removed', kind, target.display_name);
  });
  log.info({ event: `settings.${kind}_removed`, identity: auth.identity.id }, 'key removed');
  return settingsSaved(submission);
}

/** `method=webauthn`: add (`webauthn_register`) or remove (`webauthn_remove`) a security key; browser flows only. */
export async function submitSecurityKeySettings(submission: SettingsSubmission): Promise<Outcome> {
  const { ctx, flow, body, auth } = submission;
  const { db, clock, log } = ctx.idp;
  if (flow.type !== 'browser' || (!filled(body.webauthn_register) && !filled(body.webauthn_remove))) {
    addFlowMessage(flow.ui, messages.noSettingsStrategy());
    return settingsAgain(submission);
  }
  ensurePrivileged(submission);
  if (!filled(body.webauthn_register)) return removeKey(submission, 'webauthn', body.webauthn_remove as string);
  const name = typeof body.webauthn_register_displayname === 'string' ? body.webauthn_register_displayname.trim() : '';
  if ([...name].length > DISPLAY_NAME_MAX)
    return refused(submission, messages.tooLong(DISPLAY_NAME_MAX, [...name].length), 'webauthn_register_displayname');
  // The name is shown beside the remove button: no control or direction characters that could disguise it.
  if (hasHiddenCharacters(name))
    return refused(submission, messages.patternMismatch(NAME_PATTERN), 'webauthn_register_displayname');
  const created = await newKey(submission, 'webauthn', body.webauthn_register, name);
  if ('refusal' in created) return created.refusal;
  const config = keyConfigOf(auth.credentials, 'webauthn');
  await db.kysely.transaction().execute(async (trx) => {
    await saveCredential(
      trx,
      clock,
      auth.identity.id,
      'webauthn',
      {
        credentials: [...config.credentials, created.key],
        user_handle: toBase64(securityKeyUserHandle(auth.identity.id)),
      },
      [normaliseEmail(auth.identity.traits.email)],
    );
    await queueChangeNotice(ctx.services, trx, { traits: auth.identity.traits, change: 'security_key_added' });
    await credentialChanged(submission, trx, 'credential.added', 'webauthn', name);
  });
  await addSecondFactorToSession(submission, 'webauthn');
  log.info({ event: 'settings.webauthn_added', identity: auth.identity.id }, 'security key added');
  return settingsSaved(submission);
}

/** `method=passkey`: add (`passkey_settings_register`) or remove (`passkey_remove`) a passkey. */
export async function submitPasskeySettings(submission: SettingsSubmission): Promise<Outcome> {
  const { ctx, flow, body, auth } = submission;
  const { db, clock, log } = ctx.idp;
  if (!filled(body.passkey_settings_register) && !filled(body.passkey_remove)) {
    addFlowMessage(flow.ui, messages.noSettingsStrategy());
    return settingsAgain(submission);
  }
  ensurePrivileged(submission);
  if (filled(body.passkey_remove)) return removeKey(submission, 'passkey', body.passkey_remove);
  // An extension of ours: Kratos asks no name for a passkey (its schema lets the field pass, unused), and stores ''.
  const name = typeof body.passkey_display_name === 'string' ? body.passkey_display_name.trim() : '';
  if ([...name].length > DISPLAY_NAME_MAX)
    return refused(submission, messages.tooLong(DISPLAY_NAME_MAX, [...name].length));
  if (hasHiddenCharacters(name)) return refused(submission, messages.patternMismatch(NAME_PATTERN));
  const created = await newKey(submission, 'passkey', body.passkey_settings_register as string, name);
  if ('refusal' in created) return created.refusal;
  const handle = Buffer.from(created.userHandle, 'base64url');
  const credential = auth.credentials.find((c) => c.type === 'passkey');
  const config = keyConfigOf(auth.credentials, 'passkey');
  const identifiers = [...new Set([...(credential?.identifiers ?? []), handle.toString('utf8')])];
  await db.kysely.transaction().execute(async (trx) => {
    await saveCredential(
      trx,
      clock,
      auth.identity.id,
      'passkey',
      { credentials: [...config.credentials, created.key], user_handle: toBase64(handle) },
      identifiers,
    );
    await queueChangeNotice(ctx.services, trx, { traits: auth.identity.traits, change: 'passkey_added' });
    await credentialChanged(submission, trx, 'credential.added', 'passkey', created.key.display_name);
  });
  log.info({ event: 'settings.passkey_added', identity: auth.identity.id }, 'passkey added');
  return settingsSaved(submission);
}
