import type { FlowUi, UiNode } from '../flows/ui-types';
import { keyNameOf } from '../i18n/kratos-messages';

/** A security key or passkey of the signed-in person, as the settings flow's remove button describes it. */
export interface RegisteredKey {
  kind: 'security_key' | 'passkey';
  /** The name the person gave it, or '' (passkeys have none). */
  name: string;
  /** When it was added (ISO 8601); absent when the provider does not say. */
  addedAt?: string;
  /** The remove button's node: its value is the credential id in hex. */
  remove: UiNode;
}

const KIND_OF_REMOVE: Record<string, RegisteredKey['kind']> = {
  webauthn_remove: 'security_key',
  passkey_remove: 'passkey',
};

/** What the Users API knows of a key beyond the flow (`GET /api/users/security-keys`): whether it is synced. */
export interface KeyInfo {
  kind: RegisteredKey['kind'];
  /** The credential id in hex, as the remove button's value. */
  id: string;
  synced?: boolean;
}

/** 'gesynchroniseerd tussen je apparaten' or 'niet gesynchroniseerd'; nothing when the authenticator did not say. */
export function syncText(info: KeyInfo | undefined): string | undefined {
  if (info?.synced === undefined) return undefined;
  return info.synced ? 'gesynchroniseerd tussen je apparaten' : 'niet gesynchroniseerd';
}

/** The keys of a settings flow, from its `webauthn_remove` and `passkey_remove` buttons (label context). */
export function keysOf(ui: FlowUi): RegisteredKey[] {
  return ui.nodes.flatMap((node) => {
    const kind = KIND_OF_REMOVE[node.attributes.name ?? ''];
    if (!kind || node.type !== 'input') return [];
    const context = node.meta.label?.context ?? {};
    const name = keyNameOf(context);
    const at = typeof context.added_at === 'string' ? context.added_at : undefined;
    // Go's zero time (0001-01-01) means the date was not kept.
    const addedAt = at && !at.startsWith('0001-') && !Number.isNaN(Date.parse(at)) ? at : undefined;
    return [{ kind, name, addedAt, remove: node }];
  });
}

/** The button that starts adding a key of a kind, if the flow offers it. */
export const addButtonOf = (ui: FlowUi, kind: RegisteredKey['kind']): UiNode | undefined =>
  ui.nodes.find(
    (n) => n.attributes.name === (kind === 'security_key' ? 'webauthn_register_trigger' : 'passkey_register_trigger'),
  );

/** Whether the flow has anything of security keys or passkeys (the provider may have neither method on). */
export const offersKeys = (ui: FlowUi): boolean =>
  ui.nodes.some((n) => n.group === 'webauthn' || n.group === 'passkey');

export const KIND_NAMES: Record<RegisteredKey['kind'], string> = {
  security_key: 'Beveiligingssleutel',
  passkey: 'Passkey',
};

/**
 * How a key reads in the list: the name given, or for one without (Kratos asks none for a passkey and labels it
 * 'unnamed') its kind and the day it was added, 'Passkey van 20 november 2026', never 'Zonder naam'.
 */
export function shownName(key: RegisteredKey, longDate: (iso: string) => string): string {
  if (key.name) return key.name;
  return key.addedAt ? `${KIND_NAMES[key.kind]} van ${longDate(key.addedAt)}` : KIND_NAMES[key.kind];
}
