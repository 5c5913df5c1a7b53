import type { FlowUi, UiNode } from './ui-types';

/**
 * Form-level messages that are about one field. Kratos puts a wrong second-factor code, backup code or e-mailed code
 * on the whole form (docs/kratos-compatibility.md), so a screen reader would not hear it with the field; the portal
 * shows it under the field it concerns instead, marked invalid and tied to it (WCAG 3.3.1).
 */
const FIELDS_OF_MESSAGE: Record<number, string[]> = {
  4000008: ['totp_code', 'code'],
  4000012: ['lookup_secret'],
  4000016: ['lookup_secret'],
  4010006: ['code'],
  4060006: ['code'],
  4070006: ['code'],
};

const isField = (node: UiNode) =>
  node.type === 'input' &&
  !['hidden', 'submit', 'button', 'cancel-button'].includes(node.attributes.type ?? 'text') &&
  Boolean(node.attributes.name);

/**
 * The flow with each form-level error that concerns a field of `nodes` moved onto that field (once; the first field
 * of the list that is shown). Other messages stay with the form. Returns `ui` itself when nothing moves.
 */
export function placeFieldMessages(ui: FlowUi, nodes: UiNode[] = ui.nodes): FlowUi {
  const moved = new Map<string, NonNullable<FlowUi['messages']>>();
  const kept = (ui.messages ?? []).filter((message) => {
    if (message.type !== 'error') return true;
    const names = FIELDS_OF_MESSAGE[message.id] ?? [];
    const target = names.find((name) => nodes.some((node) => isField(node) && node.attributes.name === name));
    if (!target) return true;
    moved.set(target, [...(moved.get(target) ?? []), message]);
    return false;
  });
  if (moved.size === 0) return ui;
  return {
    ...ui,
    messages: kept,
    nodes: ui.nodes.map((node) => {
      const extra = isField(node) ? moved.get(node.attributes.name ?? '') : undefined;
      if (!extra) return node;
      const own = new Set(node.messages.map((message) => message.id));
      return { ...node, messages: [...node.messages, ...extra.filter((message) => !own.has(message.id))] };
    }),
  };
}
