import type { ReactNode } from 'react';

/** A red alert read out at once: one sentence as `text`, or several paragraphs as children. */
export function ErrorAlert({ text, children }: { text?: string; children?: ReactNode }) {
  return (
    <div className="utrecht-alert utrecht-alert--error" role="alert">
      {text !== undefined ? <p className="utrecht-paragraph">{text}</p> : children}
    </div>
  );
}
