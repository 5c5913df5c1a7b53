import { describedBy, FieldFrame } from './FieldFrame';
import { forwardRef, type TextareaHTMLAttributes, useId } from 'react';

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  description?: string;
}

/** A text field of several lines, tied to its label, description and error as `TextField` is. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField(
  { label, error, description, ...textarea },
  ref,
) {
  const id = useId();
  return (
    <FieldFrame id={id} kind="textarea" label={label} description={description} error={error}>
      <div className="utrecht-form-field__input">
        <textarea
          ref={ref}
          id={id}
          className={`utrecht-textarea utrecht-textarea--html-textarea${error ? ' utrecht-textarea--invalid' : ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, description, error)}
          {...textarea}
        />
      </div>
    </FieldFrame>
  );
});
