import type { FlowUi } from './ui-types';

/** The settings flow's node that shows newly made backup codes (Kratos' lookup_secret strategy). */
export const CODES_NODE = 'lookup_secret_codes';

export const codesNodeOf = (ui: FlowUi) => ui.nodes.find((n) => n.attributes.id === CODES_NODE);

/** The backup codes the flow shows (message 1050009 each), in order; none when it shows none. */
export const codesOf = (ui: FlowUi): string[] =>
  (codesNodeOf(ui)?.attributes.text?.context?.secrets ?? []).filter((s) => s.id === 1050009).map((s) => s.text);
