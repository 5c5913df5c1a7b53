import { translate, type UiText } from '../i18n/kratos-messages';

/** Flow-level messages above the form: errors as an alert, the rest as a polite status. */
export function FlowMessages({ messages }: { messages: UiText[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <>
      {messages.map((message) => {
        const error = message.type === 'error';
        const kind = error ? 'error' : message.type === 'success' ? 'ok' : 'info';
        return (
          <div
            key={`${message.id}-${message.text}`}
            className={`utrecht-alert utrecht-alert--${kind}`}
            role={error ? 'alert' : 'status'}
          >
            <p className="utrecht-paragraph">{translate(message)}</p>
          </div>
        );
      })}
    </>
  );
}
