import { useEffect, useRef } from 'react';

/** A problem in Dutch, or a text in another language with its `lang` (a provider message with no Dutch for it). */
type SummaryItem = string | { text: string; lang: string };

interface ErrorSummaryProps {
  messages: SummaryItem[];
  /** Each new value (a submit attempt, a flow the server sent back) focuses the summary when it lists errors. */
  focusOn: unknown;
  /** The id of its title, when a screen has more than one form (each with a summary). */
  titleId?: string;
}

/** The GOV.UK error summary: every problem of the form at its top, focused after a failed submit. */
export function ErrorSummary({ messages, focusOn, titleId = 'dvp-error-summary-title' }: ErrorSummaryProps) {
  const summary = useRef<HTMLDivElement>(null);
  const seen = new Set<string>();
  const unique = messages.filter((message) => {
    const text = typeof message === 'string' ? message : message.text;
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
  const shown = unique.length > 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves when asked (focusOn), not per message
  useEffect(() => {
    if (shown) summary.current?.focus();
  }, [focusOn]);
  if (!shown) return null;
  return (
    <div
      ref={summary}
      tabIndex={-1}
      className="utrecht-alert utrecht-alert--error"
      role="alert"
      aria-labelledby={titleId}
    >
      <p id={titleId} className="utrecht-paragraph">
        <strong>Controleer de volgende velden:</strong>
      </p>
      <ul>
        {unique.map((message) =>
          typeof message === 'string' ? (
            <li key={message}>{message}</li>
          ) : (
            <li key={message.text} lang={message.lang}>
              {message.text}
            </li>
          ),
        )}
      </ul>
    </div>
  );
}

/** The messages of react-hook-form's errors, in the order of the form's fields. */
export function messagesOf(
  errors: Record<string, { message?: string } | undefined>,
  fields: readonly string[],
): string[] {
  return fields.map((field) => errors[field]?.message).filter((message): message is string => Boolean(message));
}
