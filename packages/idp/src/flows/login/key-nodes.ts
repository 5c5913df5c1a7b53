import type { IdpContext } from '../../context.js';
import type { CredentialRecord } from '../../identities/identity-repository.js';
import { keepCeremonyState, relyingParty, startLogin } from '../../credentials/webauthn/ceremonies.js';
import { keyConfigOf, secondFactorKeys } from '../../credentials/webauthn/credential-config.js';
import { passkeyLoginNodes, webAuthnLoginNodes } from '../../credentials/webauthn/nodes.js';
import type { UiNode } from '../../ui/nodes.js';
import type { Flow } from '../flow.js';

const isKeyNode = (node: UiNode) => node.group === 'webauthn' || node.group === 'passkey';

/** The flow's nodes with `added` in place of its key nodes, right after the `default` group (Kratos' order). */
function placeKeyNodes(flow: Flow, added: UiNode[]): void {
  const kept = flow.ui.nodes.filter((node) => !isKeyNode(node));
  const at = kept.findLastIndex((node) => node.group === 'default') + 1;
  flow.ui.nodes = [...kept.slice(0, at), ...added, ...kept.slice(at)];
}

/**
 * The passkey sign-in on a first-factor login flow, with a fresh challenge kept in the flow
 * (docs/kratos-compatibility.md#passkeys-and-security-keys): the identifier offers passkeys to autofill. On a
 * re-authentication (`refreshing` with the session's credentials) only the identity's passkeys are allowed, and
 * none are offered when it has none. API flows get them too, without the script and `onclick`, as Kratos v26 gives
 * native apps passkeys.
 */
export async function addPasskeyLogin(
  idp: Pick<IdpContext, 'config' | 'clock'>,
  flow: Flow,
  refreshing?: CredentialRecord[],
): Promise<void> {
  const allow = refreshing ? keyConfigOf(refreshing, 'passkey').credentials : undefined;
  if (allow?.length === 0) return;
  const { options, state } = await startLogin(relyingParty(idp), 'passkey', allow);
  keepCeremonyState(flow.internal, 'passkey', state);
  const identifier = flow.ui.nodes.find((n) => n.type === 'input' && n.attributes.name === 'identifier');
  if (identifier && identifier.attributes.type !== 'hidden') {
    const { node_type, ...rest } = identifier.attributes;
    identifier.attributes = { ...rest, autocomplete: 'username webauthn', node_type };
  }
  placeKeyNodes(flow, passkeyLoginNodes(idp.config, options, flow.type === 'browser'));
}

/**
 * The security key on the second-factor step, when the identity has one; browser flows only, as in Kratos. The
 * options allow only the identity's second-factor keys.
 */
export async function addSecurityKeyLogin(
  idp: Pick<IdpContext, 'config' | 'clock'>,
  flow: Flow,
  credentials: CredentialRecord[],
  identifier: string,
): Promise<void> {
  const keys = secondFactorKeys(credentials);
  if (flow.type !== 'browser' || keys.length === 0) return;
  const { options, state } = await startLogin(relyingParty(idp), 'webauthn', keys);
  keepCeremonyState(flow.internal, 'webauthn', state);
  flow.ui.nodes = flow.ui.nodes.filter((n) => !(n.type === 'input' && n.attributes.name === 'identifier'));
  placeKeyNodes(flow, webAuthnLoginNodes(idp.config, options, identifier));
}
