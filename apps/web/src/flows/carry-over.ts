import type { FlowUi, FlowValues } from './ui-types';

/**
 * What a person typed that a replacing flow keeps when theirs expired (Kratos' 410 `self_service_flow_expired`): the
 * e-mail address or other identifier and the profile fields, never a password, code or token.
 */
const isKept = (name: string) => name === 'identifier' || name === 'email' || name.startsWith('traits.');

/** The kept fields of a sent JSON body (nested as `toJsonBody` makes it), by their node names (`traits.email`). */
export function keptValues(body: FlowValues, prefix = ''): FlowValues {
  const kept: FlowValues = {};
  for (const [key, value] of Object.entries(body)) {
    const name = `${prefix}${key}`;
    if (value && typeof value === 'object' && !Array.isArray(value))
      Object.assign(kept, keptValues(value as FlowValues, `${name}.`));
    else if (typeof value === 'string' && value !== '' && isKept(name)) kept[name] = value;
  }
  return kept;
}

/** The flow with the kept values in its empty fields of the same name; a value the provider set stays. */
export function withKeptValues<F extends { ui: unknown }>(flow: F, kept: FlowValues): F {
  const ui = flow.ui as FlowUi;
  if (Object.keys(kept).length === 0) return flow;
  const nodes = ui.nodes.map((node) => {
    const name = node.attributes.name;
    const value = name === undefined ? undefined : kept[name];
    const empty = node.attributes.value === undefined || node.attributes.value === '';
    if (value === undefined || !empty || node.type !== 'input' || node.attributes.type === 'hidden') return node;
    return { ...node, attributes: { ...node.attributes, value } };
  });
  return { ...flow, ui: { ...ui, nodes } };
}
