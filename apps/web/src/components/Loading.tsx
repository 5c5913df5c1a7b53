/** A loading state shows a spinner: a turning ring beside the text, read out politely. */
export function Loading({ text = 'Laden…' }: { text?: string }) {
  return (
    <p role="status" className="dvp-loading">
      <span className="dvp-spinner" aria-hidden="true" />
      {text}
    </p>
  );
}
