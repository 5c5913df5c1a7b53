/** A labelled NL Design System select of the overview's toolbar ('Sorteer op', 'Status'). */
export function SelectField<Value extends string>(props: {
  id: string;
  label: string;
  value: Value;
  options: readonly { key: Value; label: string }[];
  onChange(value: Value): void;
}) {
  return (
    <div className="utrecht-form-field">
      <label className="utrecht-form-label" htmlFor={props.id}>
        {props.label}
      </label>
      <select
        id={props.id}
        className="utrecht-select utrecht-select--html-select"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as Value)}
      >
        {props.options.map((option) => (
          <option key={option.key} value={option.key}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
