import { forwardRef, useId, useState, type InputHTMLAttributes } from 'react';

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  description?: string;
  /** Adds a show/hide toggle (password fields). */
  revealable?: boolean;
}

/** An NL Design System form field: label, input, description and error tied together for assistive technology. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, description, revealable, type, ...input },
  ref,
) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const describedBy =
    [description ? `${id}-description` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`utrecht-form-field utrecht-form-field--text${error ? ' utrecht-form-field--invalid' : ''}`}>
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
      <div className="utrecht-form-field__input dvp-input-row">
        <input
          ref={ref}
          id={id}
          type={revealable && shown ? 'text' : type}
          className={`utrecht-textbox utrecht-textbox--html-input${error ? ' utrecht-textbox--invalid' : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {revealable && (
          <button
            type="button"
            className="utrecht-button utrecht-button--secondary-action"
            aria-pressed={shown}
            aria-controls={id}
            aria-label={`${shown ? 'Verberg' : 'Toon'} ${label.toLowerCase()}`}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? 'Verberg' : 'Toon'}
          </button>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="utrecht-form-field-description dvp-field-message dvp-field-message--error">
          {error}
        </p>
      )}
    </div>
  );
});
