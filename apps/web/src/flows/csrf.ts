import type { FlowUi } from './ui-types';

/** The masked CSRF token a browser flow carries in its `csrf_token` node. */
export const csrfOf = (ui: FlowUi): string =>
  String(ui.nodes.find((n) => n.attributes.name === 'csrf_token')?.attributes.value ?? '');
