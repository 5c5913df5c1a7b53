import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorSummary } from '../components/ErrorSummary';
import { translate } from '../i18n/kratos-messages';
import { FlowMessages } from './FlowMessages';
import { FlowNode } from './FlowNode';
import type { FlowUi, FlowValues, UiNode } from './ui-types';

interface FlowFormProps {
  ui: FlowUi;
  /** Groups shown besides `default`; all groups when absent. */
  groups?: string[];
  onSubmit(values: FlowValues): Promise<void>;
  children?: ReactNode;
  /** False where the screen shows the flow's own messages once, above several forms of the same flow. */
  showMessages?: boolean;
}

const isButton = (node: UiNode) =>
  node.type === 'input' && (node.attributes.type === 'submit' || node.attributes.type === 'button');

/** Values start from the flow's nodes (buttons excluded) each time the flow changes (spec §4). */
export function initialValues(ui: FlowUi): FlowValues {
  const values: FlowValues = {};
  for (const node of ui.nodes) {
    if (node.type !== 'input' || isButton(node) || !node.attributes.name) continue;
    if (node.attributes.type === 'checkbox') values[node.attributes.name] = node.attributes.value === true;
    else if (node.attributes.value !== undefined) values[node.attributes.name] = node.attributes.value;
  }
  return values;
}

/** Dotted node names (`traits.name.first`) become nested objects, as Kratos expects them in a JSON body. */
export function toJsonBody(values: FlowValues): FlowValues {
  const body: FlowValues = {};
  for (const [name, value] of Object.entries(values)) {
    const path = name.split('.');
    let target = body;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      if (!next || typeof next !== 'object') target[part] = {};
      target = target[part] as FlowValues;
    }
    target[path[path.length - 1]!] = value;
  }
  return body;
}

/** A Kratos flow as a form: messages under their fields, one submit at a time, an error summary that takes focus. */
export function FlowForm({ ui, groups, onSubmit, children, showMessages = true }: FlowFormProps) {
  const [values, setValues] = useState<FlowValues>(() => initialValues(ui));
  const [loading, setLoading] = useState(false);
  const [submitted, setSubmitted] = useState(false);

  useEffect(() => setValues(initialValues(ui)), [ui]);

  const visible = useMemo(
    () => ui.nodes.filter((n) => n.group === 'default' || !groups || groups.includes(n.group)),
    [ui, groups],
  );
  const fieldErrors = visible.flatMap((n) =>
    n.messages.filter((m) => m.type === 'error').map((m) => ({ node: n, message: m })),
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const merged: FlowValues = { ...values };
    if (submitter?.name) merged[submitter.name] = submitter.value;
    // Buttons such as `lookup_secret_regenerate` name their method only by their group (as Ory Elements sends it).
    const group = submitter?.dataset.group;
    if (submitter && submitter.name !== 'method' && group && group !== 'default') merged.method = group;
    setLoading(true);
    setSubmitted(true);
    try {
      await onSubmit(toJsonBody(merged));
    } finally {
      setLoading(false);
    }
  }

  return (
    <form className="dvp-form" action={ui.action} method={ui.method} onSubmit={submit} noValidate aria-busy={loading}>
      {showMessages && <FlowMessages messages={ui.messages} />}
      <ErrorSummary messages={submitted ? fieldErrors.map(({ message }) => translate(message)) : []} focusOn={ui} />
      {visible.map((node, index) => (
        <FlowNode
          // biome-ignore lint/suspicious/noArrayIndexKey: Kratos nodes have no id; the index separates nodes that share a name
          key={`${node.group}-${node.attributes.name ?? node.attributes.id ?? index}-${index}`}
          node={node}
          values={values}
          disabled={loading}
          onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
        />
      ))}
      {children}
    </form>
  );
}
