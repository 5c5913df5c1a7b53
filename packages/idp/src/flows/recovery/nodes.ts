import { messages } from '../../ui/messages.js';
import { csrfNode, inputNode, type UiNode } from '../../ui/nodes.js';

export const recoveryEmailNodes = (): UiNode[] => [
  csrfNode(''),
  inputNode('code', 'email', 'email', { required: true, label: messages.email() }),
  inputNode('code', 'method', 'submit', { value: 'code', label: messages.continue() }),
];

export const recoveryCodeNodes = (email: string): UiNode[] => [
  csrfNode(''),
  inputNode('code', 'code', 'text', {
    required: true,
    pattern: '[0-9]+',
    maxlength: 6,
    autocomplete: 'one-time-code',
    label: messages.recoveryCode(),
  }),
  inputNode('code', 'method', 'hidden', { value: 'code' }),
  inputNode('code', 'method', 'submit', { value: 'code', label: messages.continue() }),
  inputNode('code', 'email', 'submit', { value: email, label: messages.resendCode() }),
];
