import crypto from 'node:crypto';
import type { IdpContext } from '../../context.js';
import { keepCeremonyState, relyingParty, startRegistration } from '../../credentials/webauthn/ceremonies.js';
import { keyConfigOf } from '../../credentials/webauthn/credential-config.js';
import { passkeySettingsNodes, webAuthnSettingsNodes } from '../../credentials/webauthn/nodes.js';
import type { UiNode } from '../../ui/nodes.js';
import type { SettingsView } from './nodes.js';

/** The user handle of security keys, as in Kratos: the identity's id, its 16 bytes. */
export const securityKeyUserHandle = (identityId: string): Buffer => Buffer.from(identityId.replace(/-/g, ''), 'hex');

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The user handle of passkeys: the one the identity's passkeys have, else, as Kratos makes one, 64 random letters
 * and digits. It names the identity at sign-in, so it says nothing about the person (WebAuthn §14.6.1).
 */
function passkeyUserHandle(view: SettingsView): Buffer {
  const held = keyConfigOf(view.credentials, 'passkey').user_handle;
  if (held) return Buffer.from(held, 'base64');
  const chars = Array.from(crypto.randomBytes(64), (byte) => ALPHANUMERIC[byte % 62]);
  return Buffer.from(chars.join(''), 'utf8');
}

/** Every key the identity has: a new key must be none of them (both kinds, one authenticator each). */
const allKeys = (view: SettingsView) => [
  ...keyConfigOf(view.credentials, 'webauthn').credentials,
  ...keyConfigOf(view.credentials, 'passkey').credentials,
];

/** Security keys on the settings screen (browser flows only, as in Kratos), with a fresh challenge in the flow. */
export async function securityKeySettingsNodes(
  idp: Pick<IdpContext, 'config' | 'clock'>,
  view: SettingsView,
): Promise<UiNode[]> {
  if (view.flow.type !== 'browser') return [];
  const user = { handle: securityKeyUserHandle(view.identity.id), name: view.identity.traits.email };
  const { options, state } = await startRegistration(relyingParty(idp), 'webauthn', user, allKeys(view));
  keepCeremonyState(view.flow.internal, 'webauthn', state);
  return webAuthnSettingsNodes(idp.config, view.credentials, options);
}

/** Passkeys on the settings screen, with a fresh challenge in the flow. */
export async function passkeySettingsNodesOf(
  idp: Pick<IdpContext, 'config' | 'clock'>,
  view: SettingsView,
): Promise<UiNode[]> {
  const user = { handle: passkeyUserHandle(view), name: view.identity.traits.email };
  const { options, state } = await startRegistration(relyingParty(idp), 'passkey', user, allKeys(view));
  keepCeremonyState(view.flow.internal, 'passkey', state);
  return passkeySettingsNodes(view.credentials, options, view.flow.type === 'browser');
}
