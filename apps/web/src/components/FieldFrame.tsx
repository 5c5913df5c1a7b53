import type { ReactNode } from 'react';

interface FieldFrameProps {
  /** The id of the control: its description and error are `${id}-description` and `${id}-error`. */
  id: string;
  /** The NL Design System kind of field: `text`, `textarea`. */
  kind: string;
  label: string;
  description?: string;
  error?: string;
  children: ReactNode;
}

/** What describes a control: its description and its error, by their ids. */
export const describedBy = (id: string, description?: string, error?: string) =>
  [description ? `${id}-description` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

/** An NL Design System form field around one control: the label, the description above it and the error below. */
export function FieldFrame({ id, kind, label, description, error, children }: FieldFrameProps) {
  return (
    <div className={`utrecht-form-field utrecht-form-field--${kind}${error ? ' utrecht-form-field--invalid' : ''}`}>
      <div className="utrecht-form-field__label">
        <label className="utrecht-form-label" htmlFor={id}>
          {label}
        </label>
      </div>
      {description && (
        <p id={`${id}-description`} className="utrecht-form-field-description dvp-field-message">
          {description}
        </p>
      )}
      {children}
      {error && (
        <p id={`${id}-error`} className="utrecht-form-field-description dvp-field-message dvp-field-message--error">
          {error}
        </p>
      )}
    </div>
  );
}
