import type { UiText } from '../i18n/kratos-messages';

/** The attributes of a Kratos UI node, loosely typed: the renderer accepts every attribute Kratos sends. */
export interface NodeAttributes {
  node_type: 'input' | 'img' | 'a' | 'text' | 'script' | string;
  name?: string;
  type?: string;
  value?: unknown;
  required?: boolean;
  disabled?: boolean;
  autocomplete?: string;
  placeholder?: string;
  pattern?: string;
  maxlength?: number;
  onclick?: string;
  onclickTrigger?: string;
  /** Kratos' name of a function to run when the form loads (`oryPasskeyLoginAutocompleteInit`); never evaluated. */
  onloadTrigger?: string;
  id?: string;
  href?: string;
  title?: UiText;
  src?: string;
  width?: number;
  height?: number;
  async?: boolean;
  crossorigin?: string;
  integrity?: string;
  referrerpolicy?: string;
  nonce?: string;
  options?: { value: unknown; label?: UiText | string }[];
  selectId?: string;
  text?: UiText & { context?: { secrets?: UiText[]; secret?: string } };
}

export interface UiNode {
  type: string;
  group: string;
  attributes: NodeAttributes;
  messages: UiText[];
  meta: { label?: UiText };
}

export interface FlowUi {
  action: string;
  method: string;
  messages?: UiText[];
  nodes: UiNode[];
}

export type FlowValues = Record<string, unknown>;
