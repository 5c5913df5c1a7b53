import { describedBy, FieldFrame } from './FieldFrame';
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
  return (
    <FieldFrame id={id} kind="text" label={label} description={description} error={error}>
      <div className="utrecht-form-field__input dvp-input-row">
        <input
          ref={ref}
          id={id}
          type={revealable && shown ? 'text' : type}
          className={`utrecht-textbox utrecht-textbox--html-input${error ? ' utrecht-textbox--invalid' : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, description, error)}
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
    </FieldFrame>
  );
});
