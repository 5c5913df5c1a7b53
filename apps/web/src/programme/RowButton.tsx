/** A row button: its visible text, then what it is about for assistive technology ('Wijzigen: DEGO', WCAG 2.5.3). */
export function RowButton({ label, about, onPress }: { label: string; about: string; onPress(): void }) {
  return (
    <button
      type="button"
      className="utrecht-button utrecht-button--secondary-action"
      aria-label={`${label}: ${about}`}
      onClick={onPress}
    >
      {label}
    </button>
  );
}
