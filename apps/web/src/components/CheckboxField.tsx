import { forwardRef, type InputHTMLAttributes, useId } from 'react';

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  /** Said under the label, on a line of its own, and read out with the checkbox. */
  description?: string;
}

/** An NL Design System checkbox with its label and, where it needs one, the explanation under it. */
export const CheckboxField = forwardRef<HTMLInputElement, CheckboxFieldProps>(function CheckboxField(
  { label, description, id: givenId, ...input },
  ref,
) {
  const ownId = useId();
  const id = givenId ?? ownId;
  return (
    <div className="utrecht-form-field utrecht-form-field--checkbox">
      <input
        ref={ref}
        id={id}
        type="checkbox"
        className="utrecht-checkbox utrecht-checkbox--html-input"
        aria-describedby={description ? `${id}-description` : undefined}
        {...input}
      />
      <label className="utrecht-form-label utrecht-form-label--checkbox" htmlFor={id}>
        {label}
      </label>
      {description && (
        <p
          id={`${id}-description`}
          className="utrecht-form-field-description dvp-field-message dvp-checkbox-description"
        >
          {description}
        </p>
      )}
    </div>
  );
});
