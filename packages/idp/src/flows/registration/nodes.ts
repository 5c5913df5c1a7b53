import type { Traits } from '../../identities/identity-schema.js';
import { messages } from '../../ui/messages.js';
import { csrfNode, inputNode, type UiNode } from '../../ui/nodes.js';

const traitInputs = (type: 'visible' | 'hidden', traits?: Traits): UiNode[] => [
  inputNode('default', 'traits.email', type === 'hidden' ? 'hidden' : 'email', {
    value: traits?.email,
    required: true,
    autocomplete: type === 'hidden' ? undefined : 'email',
    label: messages.schemaTitle('E-Mail', 'traits.email'),
  }),
  inputNode('default', 'traits.name.first', type === 'hidden' ? 'hidden' : 'text', {
    value: traits?.name?.first,
    label: messages.schemaTitle('First Name', 'traits.name.first'),
  }),
  inputNode('default', 'traits.name.last', type === 'hidden' ? 'hidden' : 'text', {
    value: traits?.name?.last,
    label: messages.schemaTitle('Last Name', 'traits.name.last'),
  }),
];

/** Step 1 of `profile_first` registration: the traits (docs/kratos-compatibility.md#registration). */
export const profileStepNodes = (traits?: Traits): UiNode[] => [
  csrfNode(''),
  ...traitInputs('visible', traits),
  inputNode('profile', 'method', 'submit', { value: 'profile', label: messages.signUp() }),
];

/** Step 2: traits fixed, the password, and a way back. */
export const credentialStepNodes = (traits: Traits): UiNode[] => [
  csrfNode(''),
  ...traitInputs('hidden', traits),
  inputNode('password', 'password', 'password', {
    required: true,
    autocomplete: 'new-password',
    label: messages.password(),
  }),
  inputNode('password', 'method', 'submit', { value: 'password', label: messages.signUp() }),
  inputNode('profile', 'screen', 'submit', { value: 'previous', label: messages.back() }),
];
