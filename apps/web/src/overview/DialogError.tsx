import { forwardRef, useEffect, useRef } from 'react';
import { usePortalConfig } from '../api/portal-config';
import { reasonOf, UsersApiError } from '../api/users-api';
import { SupportContact, UNREACHABLE } from '../components/SupportContact';

/**
 * What went wrong in an open dialog, shown in the dialog itself: a modal hides everything outside it from assistive
 * technology, a toast included.
 */
export interface DialogFailure {
  /** 'Er is iets misgegaan.' when the server gave no reason of its own. */
  title?: string;
  texts: string[];
  /**
   * Who to turn to: `always` the support address or, without one, the organisation's helpdesk; `address` only a
   * configured support address (for a message that already says to contact someone); `none` for a reason the person
   * can act on.
   */
  support: 'always' | 'address' | 'none';
}

const GENERAL = 'Er is iets misgegaan.';

/** The answer never arrived: no connection, a timeout, or a proxy without the portal behind it. */
const unreachable = (error: unknown) =>
  error instanceof TypeError ||
  (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) ||
  (error instanceof UsersApiError && [502, 503, 504].includes(error.status));

/**
 * The failure to show for `error`: the spec's `notFound` text for a 404 when it has one, else the server's Dutch reason
 * when it gives one, else 'Er is iets misgegaan.' with the dialog's own text (`fallback`) and who to turn to.
 */
export function failureOf(
  error: unknown,
  fallback: string,
  options: { notFound?: string; support?: 'always' | 'address' } = {},
): DialogFailure {
  if (options.notFound && error instanceof UsersApiError && error.status === 404)
    return { texts: [options.notFound], support: 'none' };
  const reason = reasonOf(error);
  if (reason) return { texts: [reason], support: 'none' };
  return {
    title: GENERAL,
    texts: unreachable(error) ? [fallback, UNREACHABLE] : [fallback],
    support: options.support ?? 'always',
  };
}

/**
 * The failure inside the dialog: a red alert, read out at once, that takes the focus when it appears (or changes), so
 * that the focus stays in the dialog and the message is what a screen reader reads next.
 */
export const DialogError = forwardRef<HTMLDivElement, { failure: DialogFailure }>(function DialogError(
  { failure },
  ref,
) {
  const address = usePortalConfig().data?.supportEmail;
  return (
    <div ref={ref} className="utrecht-alert utrecht-alert--error dvp-dialog-error" role="alert" tabIndex={-1}>
      {failure.title && (
        <p className="utrecht-paragraph">
          <strong>{failure.title}</strong>
        </p>
      )}
      {failure.texts.map((text) => (
        <p key={text} className="utrecht-paragraph">
          {text}
        </p>
      ))}
      {(failure.support === 'always' || (failure.support === 'address' && address)) && <SupportContact />}
    </div>
  );
});

/** A ref for the dialog's error box that moves the focus to it each time a (new) failure is shown. */
export function useFocusOnFailure(failure: DialogFailure | undefined) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (failure) ref.current?.focus();
  }, [failure]);
  return ref;
}
