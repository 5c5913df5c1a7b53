import type { UiText } from './messages.js';

export type NodeGroup =
  | 'default'
  | 'password'
  | 'profile'
  | 'code'
  | 'link'
  | 'totp'
  | 'lookup_secret'
  | 'webauthn'
  | 'passkey';

export interface UiNode {
  type: 'input' | 'text' | 'img' | 'a' | 'script';
  group: NodeGroup;
  attributes: Record<string, unknown>;
  messages: UiText[];
  meta: { label?: UiText };
}

export interface UiContainer {
  action: string;
  method: 'POST' | 'GET';
  nodes: UiNode[];
  messages?: UiText[];
}

export function inputNode(
  group: NodeGroup,
  name: string,
  type: string,
  options: {
    value?: unknown;
    required?: boolean;
    autocomplete?: string;
    label?: UiText;
    pattern?: string;
    maxlength?: number;
    disabled?: boolean;
    /** Kratos' browser-script hooks: the raw JavaScript and the name of the global function it calls. */
    onclick?: string;
    onclickTrigger?: string;
    onload?: string;
    onloadTrigger?: string;
  } = {},
): UiNode {
  const attributes: Record<string, unknown> = { name, type };
  if (options.value !== undefined) attributes.value = options.value;
  if (options.required) attributes.required = true;
  if (options.autocomplete) attributes.autocomplete = options.autocomplete;
  if (options.pattern) attributes.pattern = options.pattern;
  if (options.maxlength) attributes.maxlength = options.maxlength;
  attributes.disabled = options.disabled ?? false;
  for (const hook of ['onclick', 'onclickTrigger', 'onload', 'onloadTrigger'] as const)
    if (options[hook] !== undefined) attributes[hook] = options[hook];
  attributes.node_type = 'input';
  return { type: 'input', group, attributes, messages: [], meta: options.label ? { label: options.label } : {} };
}

export const textNode = (group: NodeGroup, id: string, text: UiText, label?: UiText): UiNode => ({
  type: 'text',
  group,
  attributes: { text, id, node_type: 'text' },
  messages: [],
  meta: label ? { label } : {},
});

export const imageNode = (group: NodeGroup, id: string, src: string, size: number, label?: UiText): UiNode => ({
  type: 'img',
  group,
  attributes: { src, id, width: size, height: size, node_type: 'img' },
  messages: [],
  meta: label ? { label } : {},
});

export const anchorNode = (group: NodeGroup, id: string, href: string, title: UiText): UiNode => ({
  type: 'a',
  group,
  attributes: { href, title, id, node_type: 'a' },
  messages: [],
  meta: { label: title },
});

export const csrfNode = (maskedToken: string): UiNode =>
  inputNode('default', 'csrf_token', 'hidden', { value: maskedToken, required: true });

const nodeName = (node: UiNode): string => String(node.type === 'input' ? node.attributes.name : node.attributes.id);

/** Attaches a message to the named node, or to a new text input node in `default` when there is none (Kratos). */
export function addNodeMessage(ui: UiContainer, name: string, message: UiText): void {
  const node = ui.nodes.find((n) => nodeName(n) === name);
  if (node) node.messages.push(message);
  else {
    const added = inputNode('default', name, 'text', {});
    added.messages.push(message);
    ui.nodes.push(added);
  }
}

export function addFlowMessage(ui: UiContainer, message: UiText): void {
  ui.messages = [...(ui.messages ?? []), message];
}

export function clearMessages(ui: UiContainer): void {
  delete ui.messages;
  for (const node of ui.nodes) node.messages = [];
}

export function setNodeValue(ui: UiContainer, name: string, value: unknown): void {
  const node = ui.nodes.find((n) => n.type === 'input' && n.attributes.name === name);
  if (node) node.attributes.value = value;
}
