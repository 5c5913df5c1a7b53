import type { FlowUi, FlowValues, UiNode } from '../ui-types';

/**
 * The WebAuthn ceremonies a flow's buttons ask for, by the name of the function Kratos' `webauthn.js` would call
 * (`onclickTrigger`, `onloadTrigger`): whether it asks for a credential or makes one, the method to send, the field
 * the answer goes in and where the options are. The portal runs them itself (ceremony.ts, loaded only when needed)
 * and sends the answer in JSON, as the script would in its form post.
 */
interface Ceremony {
  kind: 'get' | 'create';
  method: 'webauthn' | 'passkey';
  result: string;
  /** The node holding the options (JSON), or the button itself. */
  optionsIn?: string;
}

const CEREMONIES: Record<string, Ceremony> = {
  oryWebAuthnLogin: { kind: 'get', method: 'webauthn', result: 'webauthn_login' },
  oryPasskeyLogin: { kind: 'get', method: 'passkey', result: 'passkey_login', optionsIn: 'passkey_challenge' },
  oryPasskeyLoginAutocompleteInit: {
    kind: 'get',
    method: 'passkey',
    result: 'passkey_login',
    optionsIn: 'passkey_challenge',
  },
  oryWebAuthnRegistration: { kind: 'create', method: 'webauthn', result: 'webauthn_register' },
  oryPasskeySettingsRegistration: {
    kind: 'create',
    method: 'passkey',
    result: 'passkey_settings_register',
    optionsIn: 'passkey_create_data',
  },
  oryPasskeyRegistration: {
    kind: 'create',
    method: 'passkey',
    result: 'passkey_register',
    optionsIn: 'passkey_create_data',
  },
};

/** The ceremony a button starts, if it is one of the WebAuthn buttons. */
export const ceremonyOf = (node: UiNode): Ceremony | undefined =>
  node.attributes.onclickTrigger ? CEREMONIES[node.attributes.onclickTrigger] : undefined;

/**
 * The node that asks for passkey autofill on the e-mail field when the screen loads (conditional mediation); none
 * without such a field (a re-authentication keeps the address hidden: its passkey button is the way).
 */
export const autofillNodeOf = (ui: FlowUi): UiNode | undefined =>
  ui.nodes.some(
    (n) =>
      n.attributes.name === 'identifier' &&
      n.attributes.type !== 'hidden' &&
      /\bwebauthn\b/.test(String(n.attributes.autocomplete)),
  )
    ? ui.nodes.find((n) => n.attributes.onloadTrigger === 'oryPasskeyLoginAutocompleteInit')
    : undefined;

export const AUTOFILL = CEREMONIES.oryPasskeyLoginAutocompleteInit!;

/** The options (JSON text) of a ceremony: in the named node, or in the button's own value. */
export function optionsOf(ceremony: Ceremony, ui: FlowUi, button?: UiNode): string | undefined {
  const holder = ceremony.optionsIn ? ui.nodes.find((n) => n.attributes.name === ceremony.optionsIn) : button;
  const value = holder?.attributes.value;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The values to send with a ceremony's answer: the other method's WebAuthn fields are left out (the options are
 * the provider's own, never sent back), and `method` names the ceremony's.
 */
export function bodyWith(values: FlowValues, ceremony: Ceremony, answer: string): FlowValues {
  const body: FlowValues = {};
  for (const [name, value] of Object.entries(values)) {
    if (/^(webauthn|passkey)_/.test(name)) continue;
    body[name] = value;
  }
  // The name given to a new key: Kratos' field for a security key, ours for a passkey (docs/kratos-compatibility.md).
  const nameField = ceremony.method === 'webauthn' ? 'webauthn_register_displayname' : 'passkey_display_name';
  const own = values[nameField];
  return {
    ...body,
    ...(own !== undefined ? { [nameField]: own } : {}),
    method: ceremony.method,
    [ceremony.result]: answer,
  };
}

/** A submit by another button: no WebAuthn data goes with it. */
export const withoutWebAuthn = (values: FlowValues): FlowValues =>
  Object.fromEntries(
    Object.entries(values).filter(
      ([name]) => !/^(webauthn|passkey)_/.test(name) || name === 'webauthn_remove' || name === 'passkey_remove',
    ),
  );

export type { Ceremony };
