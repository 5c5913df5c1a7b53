import crypto from 'node:crypto';
import type { IdpConfig } from '../../config.js';
import { messages } from '../../ui/messages.js';
import { inputNode, type UiNode } from '../../ui/nodes.js';
import { WEBAUTHN_SCRIPT_PATH, webAuthnScriptIntegrity } from './browser-script.js';
import { countFirstFactors, hexIdOf, type StoredWebAuthnKey } from './credential-config.js';
import type { BrowserOptions } from './ceremonies.js';
import type { CredentialRecord } from '../../identities/identity-repository.js';
import { keyConfigOf } from './credential-config.js';

/** The nodes of Kratos' WebAuthn and passkey methods (x/webauthnx/nodes.go, selfservice/strategy/passkey). */

/** The script node that loads `/.well-known/ory/webauthn.js` (browser flows only, as in Kratos). */
export function webAuthnScriptNode(config: IdpConfig): UiNode {
  return {
    type: 'script',
    group: 'webauthn',
    attributes: {
      src: new URL(WEBAUTHN_SCRIPT_PATH, config.publicUrl).toString(),
      async: true,
      referrerpolicy: 'no-referrer',
      crossorigin: 'anonymous',
      integrity: webAuthnScriptIntegrity,
      type: 'text/javascript',
      id: 'webauthn_script',
      nonce: crypto.randomUUID(),
      node_type: 'script',
    },
    messages: [],
    meta: {},
  };
}

/** The raw `onclick` of a trigger button: browser flows only, as API flows carry no script (Kratos v26). */
export const onclickOf = (trigger: string, browser: boolean) => (browser ? { onclick: `window.${trigger}()` } : {});

/** Passkey sign-in on the first login screen: the challenge, the hidden answer, the button. */
export function passkeyLoginNodes(config: IdpConfig, options: BrowserOptions, browser: boolean): UiNode[] {
  return [
    ...(browser ? [webAuthnScriptNode(config)] : []),
    inputNode('passkey', 'passkey_login_trigger', 'button', {
      value: '',
      ...onclickOf('oryPasskeyLogin', browser),
      onclickTrigger: 'oryPasskeyLogin',
      label: messages.signInWithPasskey(),
    }),
    inputNode('passkey', 'passkey_login', 'hidden', {
      ...(browser ? { onload: 'window.oryPasskeyLoginAutocompleteInit()' } : {}),
      onloadTrigger: 'oryPasskeyLoginAutocompleteInit',
    }),
    inputNode('passkey', 'passkey_challenge', 'hidden', { value: JSON.stringify(options) }),
  ];
}

/** The security key as second factor: the identifier it belongs to, the answer field, the button with options. */
export function webAuthnLoginNodes(config: IdpConfig, options: BrowserOptions, identifier: string): UiNode[] {
  const json = JSON.stringify(options);
  return [
    inputNode('default', 'identifier', 'hidden', { value: identifier }),
    inputNode('webauthn', 'webauthn_login', 'hidden', { value: '' }),
    webAuthnScriptNode(config),
    inputNode('webauthn', 'webauthn_login_trigger', 'button', {
      value: json,
      onclick: `window.oryWebAuthnLogin(${json})`,
      onclickTrigger: 'oryWebAuthnLogin',
      label: messages.signInWithHardwareKey(),
    }),
  ];
}

const removeLabel = (kind: 'webauthn' | 'passkey', key: StoredWebAuthnKey) =>
  (kind === 'webauthn' ? messages.removeSecurityKey : messages.removePasskey)(
    key.display_name || 'unnamed',
    new Date(key.added_at),
  );

const byHexId = (a: StoredWebAuthnKey, b: StoredWebAuthnKey) => (hexIdOf(a) < hexIdOf(b) ? -1 : 1);

/** Settings: remove buttons for the security keys, a name field, the hidden answer and the add button. */
export function webAuthnSettingsNodes(
  config: IdpConfig,
  credentials: CredentialRecord[],
  options: BrowserOptions,
): UiNode[] {
  const firstFactors = countFirstFactors(credentials);
  const json = JSON.stringify(options);
  return [
    ...keyConfigOf(credentials, 'webauthn')
      .credentials.sort(byHexId)
      .map((key) =>
        inputNode('webauthn', 'webauthn_remove', 'submit', {
          value: hexIdOf(key),
          disabled: key.is_passwordless && firstFactors < 2,
          label: removeLabel('webauthn', key),
        }),
      ),
    inputNode('webauthn', 'webauthn_register_displayname', 'text', {
      value: '',
      label: messages.securityKeyName(),
    }),
    inputNode('webauthn', 'webauthn_register', 'hidden', { value: '' }),
    inputNode('webauthn', 'webauthn_register_trigger', 'button', {
      value: json,
      onclick: `window.oryWebAuthnRegistration(${json})`,
      onclickTrigger: 'oryWebAuthnRegistration',
      label: messages.addSecurityKey(),
    }),
    webAuthnScriptNode(config),
  ];
}

/** Settings: remove buttons for the passkeys, the add button, the hidden answer and the options. */
export function passkeySettingsNodes(
  credentials: CredentialRecord[],
  options: BrowserOptions,
  browser: boolean,
): UiNode[] {
  const firstFactors = countFirstFactors(credentials);
  return [
    ...keyConfigOf(credentials, 'passkey')
      .credentials.sort(byHexId)
      .map((key) =>
        inputNode('passkey', 'passkey_remove', 'submit', {
          value: hexIdOf(key),
          disabled: firstFactors < 2,
          label: removeLabel('passkey', key),
        }),
      ),
    inputNode('passkey', 'passkey_register_trigger', 'button', {
      value: '',
      ...onclickOf('oryPasskeySettingsRegistration', browser),
      onclickTrigger: 'oryPasskeySettingsRegistration',
      label: messages.addPasskey(),
    }),
    inputNode('passkey', 'passkey_settings_register', 'hidden', {}),
    inputNode('passkey', 'passkey_create_data', 'hidden', { value: JSON.stringify(options) }),
  ];
}
