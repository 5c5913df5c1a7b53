import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorSummary } from '../components/ErrorSummary';
import { providerText } from '../i18n/ProviderText';
import { placeFieldMessages } from './field-messages';
import { FlowMessages } from './FlowMessages';
import { FlowNode } from './FlowNode';
import type { FlowUi, FlowValues, UiNode } from './ui-types';
import { useWebAuthn } from './webauthn/use-webauthn';
import { withoutWebAuthn } from './webauthn/triggers';

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

/** Values start from the flow's nodes (buttons excluded) each time the flow changes. */
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

/** The first field of a form a person types in or chooses, else its first message: for the focus as a last resort. */
const firstFieldOf = (form: HTMLFormElement | null) =>
  form?.querySelector<HTMLElement>('input:not([type="hidden"]):not(:disabled), select:not(:disabled)') ??
  form?.querySelector<HTMLElement>('[data-flow-message]') ??
  null;

/**
 * A Kratos flow as a form: messages under their fields (also the form-level ones about one field), one submit at a
 * time, and after each answer the focus on what it says: the error summary, else the form's error message, else back
 * on the button that sent it, never on the page itself (WCAG 2.4.3).
 */
export function FlowForm({ ui, groups, onSubmit, children, showMessages = true }: FlowFormProps) {
  const [values, setValues] = useState<FlowValues>(() => initialValues(ui));
  const [loading, setLoading] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const lastSubmitter = useRef<HTMLButtonElement | null>(null);

  useEffect(() => setValues(initialValues(ui)), [ui]);

  const groupKey = groups?.join(' ');
  // A screen makes a new groups array on every render; the groups are compared by their names (groupKey) instead.
  // biome-ignore lint/correctness/useExhaustiveDependencies: compared by groupKey, not by the array
  const shown = useMemo(() => {
    const visible = ui.nodes.filter((n) => n.group === 'default' || !groups || groups.includes(n.group));
    return placeFieldMessages({ ...ui, nodes: visible });
  }, [ui, groupKey]);
  const fieldErrors = shown.nodes.flatMap((n) =>
    n.messages.filter((m) => m.type === 'error').map((m) => providerText(m, n.attributes.name)),
  );

  // The button was disabled while sending, which drops the focus to the page: when nothing took it since (the error
  // summary, an error message, the screen's next step), it goes back to that button, else to the first field, else to
  // the form's first message (a flow that is done has no field left).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the end of a submit matters
  useEffect(() => {
    if (loading || !submitted || !form.current?.isConnected) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const button = lastSubmitter.current;
    (button?.isConnected && !button.disabled ? button : firstFieldOf(form.current))?.focus();
  }, [loading]);

  /** Sends a security key's or passkey's answer as the form's body (webauthn/use-webauthn.ts). */
  async function sendCeremony(body: FlowValues) {
    setSubmitted(true);
    setLoading(true);
    try {
      await onSubmit(toJsonBody(body));
    } finally {
      setLoading(false);
    }
  }
  const webauthn = useWebAuthn(ui, values, sendCeremony);
  const failureRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (webauthn.failure) failureRef.current?.focus();
  }, [webauthn.failure]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    lastSubmitter.current = submitter;
    const merged: FlowValues = withoutWebAuthn(values);
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
    <form
      ref={form}
      className="dvp-form"
      action={ui.action}
      method={ui.method}
      onSubmit={submit}
      noValidate
      aria-busy={loading || webauthn.busy}
    >
      {showMessages && (
        <FlowMessages messages={shown.messages} focusOn={submitted && fieldErrors.length === 0 ? ui : undefined} />
      )}
      <ErrorSummary messages={submitted ? fieldErrors : []} focusOn={ui} />
      {webauthn.failure && (
        <div ref={failureRef} tabIndex={-1} className="utrecht-alert utrecht-alert--error" role="alert">
          <p className="utrecht-paragraph">{webauthn.failure}</p>
        </div>
      )}
      {shown.nodes.map((node, index) => (
        <FlowNode
          // biome-ignore lint/suspicious/noArrayIndexKey: nodes have no id; the index separates nodes sharing a name
          key={`${node.group}-${node.attributes.name ?? node.attributes.id ?? index}-${index}`}
          node={node}
          values={values}
          disabled={loading || webauthn.busy}
          onCeremony={(button) => {
            lastSubmitter.current = document.activeElement as HTMLButtonElement | null;
            void webauthn.run(button);
          }}
          onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
        />
      ))}
      {children}
    </form>
  );
}
