import { useId, useState, type ClipboardEvent, type ReactNode } from 'react';
import { translate } from '../i18n/kratos-messages';
import { ProviderText } from '../i18n/ProviderText';
import type { FlowValues, UiNode } from './ui-types';
import { ceremonyOf } from './webauthn/triggers';

interface NodeProps {
  node: UiNode;
  values: FlowValues;
  disabled: boolean;
  onChange(name: string, value: unknown): void;
  /** A WebAuthn button (security key, passkey) was pressed: the form runs its ceremony. */
  onCeremony?(node: UiNode): void;
}

/** Autocomplete values where the provider sends none (WCAG 1.3.5). */
const AUTOCOMPLETE: Record<string, string> = {
  identifier: 'email',
  email: 'email',
  totp_code: 'one-time-code',
  code: 'one-time-code',
  lookup_secret: 'one-time-code',
  'traits.name.first': 'given-name',
  'traits.name.last': 'family-name',
};

const labelOf = (node: UiNode) => (node.meta.label ? translate(node.meta.label) : (node.attributes.name ?? ''));

function Messages({ node, id }: { node: UiNode; id: string }) {
  if (node.messages.length === 0) return null;
  return (
    <div id={id}>
      {node.messages.map((message) => (
        <p
          key={`${message.id}-${message.text}`}
          className={
            message.type === 'error'
              ? 'utrecht-form-field-description dvp-field-message dvp-field-message--error'
              : 'utrecht-form-field-description dvp-field-message'
          }
        >
          <ProviderText message={message} field={node.attributes.name} />
        </p>
      ))}
    </div>
  );
}

/**
 * Submitting is the primary action; taking something away (unlinking the app, switching backup codes off) and other
 * buttons are secondary, so that they do not look like the way forward.
 */
function buttonAppearance(node: UiNode): 'primary-action' | 'secondary-action' {
  const { name, type } = node.attributes;
  if (name && /_(unlink|disable|remove)$/.test(name)) return 'secondary-action';
  return node.group === 'default' || type === 'submit' ? 'primary-action' : 'secondary-action';
}

/** One component per node type (input, text, img, a, script); `onclick`/`onload` strings are never evaluated. */
export function FlowNode(props: NodeProps): ReactNode {
  switch (props.node.type) {
    case 'input':
      return <InputNode {...props} />;
    case 'img':
      return <ImageNode node={props.node} />;
    case 'a':
      return (
        <a className="utrecht-link" href={props.node.attributes.href} id={props.node.attributes.id}>
          {props.node.attributes.title ? translate(props.node.attributes.title) : labelOf(props.node)}
        </a>
      );
    case 'text':
      return <TextNode node={props.node} />;
    case 'script':
      return <ScriptNode node={props.node} />;
    default:
      return null;
  }
}

function ImageNode({ node }: { node: UiNode }) {
  const { src, id, width, height } = node.attributes;
  return (
    <figure className="dvp-figure">
      <img src={src} id={id} width={width} height={height} alt={labelOf(node)} />
    </figure>
  );
}

function TextNode({ node }: { node: UiNode }) {
  const text = node.attributes.text;
  if (!text) return null;
  // 1050015: the grid of backup codes; 1050006: the authenticator app's key for manual entry.
  if (text.id === 1050015 && Array.isArray(text.context?.secrets)) return <BackupCodeList node={node} />;
  if (text.id === 1050006) return <SecretKey node={node} />;
  return (
    <div id={node.attributes.id}>
      {node.meta.label && <p className="utrecht-form-label">{translate(node.meta.label)}</p>}
      <p className="utrecht-paragraph">
        <code>{translate(text)}</code>
      </p>
    </div>
  );
}

/** The backup codes of a 1050015 text node, as a grid; entries with 1050014 were used ('Used', the spec's English). */
export function BackupCodeList({ node }: { node: UiNode }) {
  const secrets = node.attributes.text?.context?.secrets ?? [];
  return (
    <div>
      {node.meta.label && <p className="utrecht-paragraph">{translate(node.meta.label)}</p>}
      <ul className="dvp-backup-codes" aria-label="Back-upcodes" id={node.attributes.id}>
        {secrets.map((secret, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the codes are a fixed list in which used codes share one text
          <li key={index} className={secret.id === 1050014 ? 'dvp-backup-code--used' : undefined}>
            {secret.id === 1050014 ? <span lang="en">{translate(secret)}</span> : secret.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The key without the spaces a person may have copied along with it. */
const withoutSpaces = (text: string) => text.replace(/\s+/g, '');

/**
 * The key for manual entry, in groups of four as authenticator apps show them, so that eyes and screen readers can
 * follow it; copying it (selected, or with the button) gives the key itself, without the spaces.
 */
function SecretKey({ node }: { node: UiNode }) {
  const text = node.attributes.text!;
  const key = withoutSpaces(translate(text));
  const [copied, setCopied] = useState(false);
  function copySelection(event: ClipboardEvent<HTMLElement>) {
    const selection = window.getSelection();
    const inside = (target: Node | null | undefined) => Boolean(target && event.currentTarget.contains(target));
    if (!selection || !inside(selection.anchorNode) || !inside(selection.focusNode)) return;
    event.clipboardData.setData('text/plain', withoutSpaces(selection.toString()));
    event.preventDefault();
  }
  async function copyKey() {
    await navigator.clipboard.writeText(key);
    setCopied(true);
  }
  return (
    <div id={node.attributes.id} className="dvp-secret-key">
      {node.meta.label && <p className="utrecht-form-label">{translate(node.meta.label)}</p>}
      <p className="utrecht-paragraph">
        <code onCopy={copySelection}>{key.match(/.{1,4}/g)?.join(' ')}</code>
      </p>
      <div className="dvp-links">
        <button
          type="button"
          className="utrecht-button utrecht-button--secondary-action"
          onClick={() => void copyKey()}
        >
          Sleutel kopiëren
        </button>
        <p role="status" className="utrecht-paragraph">
          {copied ? 'De sleutel staat op je klembord.' : ''}
        </p>
      </div>
    </div>
  );
}

function ScriptNode({ node }: { node: UiNode }) {
  const { src, integrity, crossorigin, referrerpolicy, nonce, id } = node.attributes;
  // Only same-origin scripts that carry an integrity hash (docs/architecture.md).
  if (!src || !integrity) return null;
  let sameOrigin = false;
  try {
    sameOrigin = new URL(src, window.location.href).origin === window.location.origin;
  } catch {
    sameOrigin = false;
  }
  if (!sameOrigin) return null;
  return (
    <script
      src={src}
      integrity={integrity}
      crossOrigin={crossorigin as 'anonymous' | 'use-credentials' | undefined}
      referrerPolicy={referrerpolicy as React.HTMLAttributeReferrerPolicy | undefined}
      nonce={nonce}
      id={id}
      async={node.attributes.async}
    />
  );
}

function InputNode({ node, values, disabled, onChange, onCeremony }: NodeProps) {
  const inputId = useId();
  const messagesId = `${inputId}-messages`;
  const attributes = node.attributes;
  const name = attributes.name ?? '';
  const invalid = node.messages.some((m) => m.type === 'error');
  const describedBy = node.messages.length > 0 ? messagesId : undefined;
  const isDisabled = disabled || attributes.disabled === true;

  switch (attributes.type) {
    case 'hidden':
      return <input type="hidden" name={name} value={String(values[name] ?? attributes.value ?? '')} />;
    case 'submit':
    case 'button':
      return (
        <button
          type={attributes.type === 'submit' ? 'submit' : 'button'}
          name={name}
          data-group={node.group}
          value={String(attributes.value ?? '')}
          disabled={isDisabled}
          className={`utrecht-button utrecht-button--${buttonAppearance(node)}`}
          onClick={ceremonyOf(node) && onCeremony ? () => onCeremony(node) : undefined}
        >
          {labelOf(node)}
        </button>
      );
    case 'cancel-button':
      return (
        <button
          type="button"
          name={name}
          disabled={isDisabled}
          className="utrecht-button utrecht-button--secondary-action"
          onClick={() => window.history.back()}
        >
          {labelOf(node)}
        </button>
      );
    case 'checkbox':
      return (
        <div
          className={`utrecht-form-field utrecht-form-field--checkbox${invalid ? ' utrecht-form-field--invalid' : ''}`}
        >
          <input
            id={inputId}
            type="checkbox"
            className="utrecht-checkbox utrecht-checkbox--html-input"
            name={name}
            checked={values[name] === true}
            disabled={isDisabled}
            required={attributes.required}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(event) => onChange(name, event.target.checked)}
          />
          <label className="utrecht-form-label utrecht-form-label--checkbox" htmlFor={inputId}>
            {labelOf(node)}
          </label>
          <Messages node={node} id={messagesId} />
        </div>
      );
    case 'select-multiple': {
      const selected = Array.isArray(values[name]) ? (values[name] as unknown[]).map(String) : [];
      return (
        <div className={`utrecht-form-field${invalid ? ' utrecht-form-field--invalid' : ''}`}>
          <label className="utrecht-form-label" htmlFor={attributes.selectId ?? inputId}>
            {labelOf(node)}
          </label>
          <select
            id={attributes.selectId ?? inputId}
            className="utrecht-select utrecht-select--html-select"
            multiple
            name={name}
            disabled={isDisabled}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            value={selected}
            onChange={(event) =>
              onChange(
                name,
                [...event.target.selectedOptions].map((o) => o.value),
              )
            }
          >
            {(attributes.options ?? []).map((option) => (
              <option key={String(option.value)} value={String(option.value)}>
                {typeof option.label === 'string'
                  ? option.label
                  : option.label
                    ? translate(option.label)
                    : String(option.value)}
              </option>
            ))}
          </select>
          <Messages node={node} id={messagesId} />
        </div>
      );
    }
    default:
      return (
        <div className={`utrecht-form-field utrecht-form-field--text${invalid ? ' utrecht-form-field--invalid' : ''}`}>
          <div className="utrecht-form-field__label">
            <label className="utrecht-form-label" htmlFor={inputId}>
              {labelOf(node)}
            </label>
          </div>
          <div className="utrecht-form-field__input">
            <input
              id={inputId}
              className={`utrecht-textbox utrecht-textbox--html-input${invalid ? ' utrecht-textbox--invalid' : ''}`}
              type={attributes.type ?? 'text'}
              name={name}
              value={String(values[name] ?? '')}
              required={attributes.required}
              disabled={isDisabled}
              placeholder={attributes.placeholder}
              autoComplete={attributes.autocomplete ?? AUTOCOMPLETE[name]}
              inputMode={name === 'totp_code' || name === 'code' ? 'numeric' : undefined}
              pattern={attributes.pattern}
              maxLength={attributes.maxlength}
              aria-invalid={invalid || undefined}
              aria-describedby={describedBy}
              onChange={(event) => onChange(name, event.target.value)}
            />
          </div>
          <Messages node={node} id={messagesId} />
        </div>
      );
  }
}
