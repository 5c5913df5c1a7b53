import type { CredentialRecord } from '../../identities/identity-repository.js';
import { messages } from '../../ui/messages.js';
import { csrfNode, inputNode, type UiNode } from '../../ui/nodes.js';
import { recoveryCodesOf } from '../../credentials/lookup/lookup-secrets.js';

const identifierLabel = () => messages.schemaTitle('E-Mail', 'traits.email');

/** First factor: identifier, password, submit (docs/kratos-compatibility.md#creating-a-login-flow). */
export const passwordLoginNodes = (): UiNode[] => [
  csrfNode(''),
  inputNode('default', 'identifier', 'text', { value: '', required: true, label: identifierLabel() }),
  inputNode('password', 'password', 'password', {
    required: true,
    autocomplete: 'current-password',
    label: messages.password(),
  }),
  inputNode('password', 'method', 'submit', { value: 'password', label: messages.signInWithPassword() }),
];

/** Re-authentication: the identifier is fixed to the session's. */
export const refreshLoginNodes = (identifier: string): UiNode[] => [
  csrfNode(''),
  inputNode('default', 'identifier', 'hidden', { value: identifier, required: true, label: identifierLabel() }),
  inputNode('password', 'password', 'password', {
    required: true,
    autocomplete: 'current-password',
    label: messages.password(),
  }),
  inputNode('password', 'method', 'submit', { value: 'password', label: messages.signIn() }),
];

/** Second factor: only the methods the identity has. */
export function secondFactorNodes(credentials: CredentialRecord[]): UiNode[] {
  const nodes: UiNode[] = [csrfNode('')];
  if (credentials.some((c) => c.type === 'totp')) {
    nodes.push(
      inputNode('totp', 'totp_code', 'text', {
        value: '',
        required: true,
        autocomplete: 'one-time-code',
        label: messages.authenticationCode(),
      }),
      inputNode('totp', 'method', 'submit', { value: 'totp', label: messages.useAuthenticator() }),
    );
  }
  const lookup = credentials.find((c) => c.type === 'lookup_secret');
  if (lookup && recoveryCodesOf(lookup.config).length > 0) {
    nodes.push(
      inputNode('lookup_secret', 'lookup_secret', 'text', {
        value: '',
        required: true,
        label: messages.backupRecoveryCode(),
      }),
      inputNode('lookup_secret', 'method', 'submit', {
        value: 'lookup_secret',
        label: messages.useBackupRecoveryCode(),
      }),
    );
  }
  return nodes;
}
