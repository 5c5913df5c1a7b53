import type { IdpServices } from '../../services.js';
import type { CredentialRecord, IdentityRecord } from '../../identities/identity-repository.js';
import { messages } from '../../ui/messages.js';
import { csrfNode, imageNode, inputNode, textNode, type UiNode } from '../../ui/nodes.js';
import { recoveryCodesOf, recoveryCodesText, type RecoveryCode } from '../../credentials/lookup/lookup-secrets.js';
import { newTotpSecret, secretOfTotpUrl, totpQrDataUrl, totpUrl } from '../../credentials/totp/totp.js';
import type { Flow } from '../flow.js';
import { webAuthnScriptNode } from '../../credentials/webauthn/nodes.js';
import { passkeySettingsNodesOf, securityKeySettingsNodes } from './key-nodes.js';

/** What the settings form shows: the flow (with its pending secrets), the identity and its credentials. */
export interface SettingsView {
  flow: Flow;
  identity: IdentityRecord;
  credentials: CredentialRecord[];
}

const profileNodes = (identity: IdentityRecord): UiNode[] => [
  inputNode('profile', 'traits.email', 'email', {
    value: identity.traits.email,
    required: true,
    autocomplete: 'email',
    label: messages.schemaTitle('E-Mail', 'traits.email'),
  }),
  inputNode('profile', 'traits.name.first', 'text', {
    value: identity.traits.name?.first ?? '',
    label: messages.schemaTitle('First Name', 'traits.name.first'),
  }),
  inputNode('profile', 'traits.name.last', 'text', {
    value: identity.traits.name?.last ?? '',
    label: messages.schemaTitle('Last Name', 'traits.name.last'),
  }),
  inputNode('profile', 'method', 'submit', { value: 'profile', label: messages.save() }),
];

const passwordNodes = (): UiNode[] => [
  inputNode('password', 'password', 'password', {
    required: true,
    autocomplete: 'new-password',
    label: messages.password(),
  }),
  inputNode('password', 'method', 'submit', { value: 'password', label: messages.save() }),
];

const codesNode = (codes: RecoveryCode[]) =>
  textNode('lookup_secret', 'lookup_secret_codes', recoveryCodesText(codes), messages.lookupSecretsLabel());
const submitTrue = (name: string, label: ReturnType<typeof messages.save>) =>
  inputNode('lookup_secret', name, 'submit', { value: 'true', label });

/** Lookup-secret nodes for the flow's view: pending regenerated codes, revealed codes, or the buttons. */
function lookupSecretNodes(flow: Flow, credentials: CredentialRecord[]): UiNode[] {
  const pending = flow.internal.pending_recovery_codes as RecoveryCode[] | undefined;
  if (pending) return [codesNode(pending), submitTrue('lookup_secret_confirm', messages.confirmLookupSecrets())];
  const stored = recoveryCodesOf(credentials.find((c) => c.type === 'lookup_secret')?.config ?? {});
  if (stored.length === 0) return [submitTrue('lookup_secret_regenerate', messages.regenerateLookupSecrets())];
  if (flow.internal.reveal_recovery_codes === true) {
    return [
      codesNode(stored),
      submitTrue('lookup_secret_regenerate', messages.regenerateLookupSecrets()),
      submitTrue('lookup_secret_disable', messages.disableMethod()),
    ];
  }
  return [
    submitTrue('lookup_secret_reveal', messages.revealLookupSecrets()),
    submitTrue('lookup_secret_disable', messages.disableMethod()),
  ];
}

/** TOTP nodes: unlink when enrolled, else QR code, secret and code input for a pending secret kept in the flow. */
async function totpNodes(services: IdpServices, view: SettingsView): Promise<UiNode[]> {
  const { flow, identity, credentials } = view;
  if (credentials.some((c) => c.type === 'totp')) {
    return [
      inputNode('totp', 'totp_unlink', 'submit', { value: 'true', required: true, label: messages.unlinkTotp() }),
    ];
  }
  let url = flow.internal.totp_url as string | undefined;
  if (!url) {
    url = totpUrl(services.ctx.config.totpIssuer, identity.traits.email, newTotpSecret());
    flow.internal.totp_url = url;
  }
  const secret = secretOfTotpUrl(url) ?? '';
  return [
    imageNode('totp', 'totp_qr', await totpQrDataUrl(url), 256, messages.totpQrCode()),
    textNode('totp', 'totp_secret_key', messages.totpSecret(secret), messages.totpSecretLabel()),
    inputNode('totp', 'totp_code', 'text', { required: true, label: messages.verifyCode() }),
    inputNode('totp', 'method', 'submit', { value: 'totp', label: messages.save() }),
  ];
}

/**
 * All settings nodes in Kratos' group order: default, profile, password, lookup_secret, webauthn, passkey, totp. The
 * WebAuthn script node belongs to the `webauthn` group; passkeys need it too when security keys are not offered.
 */
export async function settingsNodes(services: IdpServices, view: SettingsView): Promise<UiNode[]> {
  const { config } = services.ctx;
  const securityKeys = await securityKeySettingsNodes(services.ctx, view);
  const passkeys = await passkeySettingsNodesOf(services.ctx, view);
  const script = securityKeys.length === 0 && view.flow.type === 'browser' ? [webAuthnScriptNode(config)] : [];
  return [
    csrfNode(''),
    ...profileNodes(view.identity),
    ...passwordNodes(),
    ...lookupSecretNodes(view.flow, view.credentials),
    ...securityKeys,
    ...script,
    ...passkeys,
    ...(await totpNodes(services, view)),
  ];
}
