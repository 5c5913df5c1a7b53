import { useEffect, useRef } from 'react';
import type { UiText } from '../i18n/kratos-messages';
import { ProviderText } from '../i18n/ProviderText';

interface FlowMessagesProps {
  messages: UiText[] | undefined;
  /**
   * Each new value (the answer to a submit) moves the focus to the first error message, so that the focus does not
   * drop to the page when the form's button is disabled while sending (WCAG 2.4.3).
   */
  focusOn?: unknown;
}

/** Flow-level messages above the form: errors as an alert, the rest as a polite status. */
export function FlowMessages({ messages, focusOn }: FlowMessagesProps) {
  const firstError = useRef<HTMLDivElement>(null);
  const hasError = (messages ?? []).some((message) => message.type === 'error');
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves only when the caller asks again (focusOn)
  useEffect(() => {
    if (focusOn !== undefined && hasError) firstError.current?.focus();
  }, [focusOn]);
  if (!messages || messages.length === 0) return null;
  const first = messages.find((message) => message.type === 'error');
  // Every message can take the focus from the script (the form's last resort after a submit, FlowForm.tsx).
  return (
    <>
      {messages.map((message) => {
        const error = message.type === 'error';
        const kind = error ? 'error' : message.type === 'success' ? 'ok' : 'info';
        return (
          <div
            key={`${message.id}-${message.text}`}
            ref={message === first ? firstError : undefined}
            tabIndex={-1}
            data-flow-message
            className={`utrecht-alert utrecht-alert--${kind}`}
            role={error ? 'alert' : 'status'}
          >
            <p className="utrecht-paragraph">
              <ProviderText message={message} />
            </p>
          </div>
        );
      })}
    </>
  );
}
