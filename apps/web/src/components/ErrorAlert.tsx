import { useEffect, useRef, type ReactNode } from 'react';
import { SupportContact } from './SupportContact';

interface ErrorAlertProps {
  /** One sentence; or several paragraphs as children. */
  text?: string;
  children?: ReactNode;
  /** Adds who to turn to when the problem persists: the support address, or the organisation's helpdesk. */
  support?: boolean;
  /**
   * Takes the focus when it appears (and when its text changes): for the answer to something the person did, whose
   * button was disabled while it ran, so that the focus does not drop to the page (WCAG 2.4.3).
   */
  focus?: boolean;
}

/** A red alert read out at once. */
export function ErrorAlert({ text, children, support, focus }: ErrorAlertProps) {
  const alert = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text is a new answer, which takes the focus again
  useEffect(() => {
    if (focus) alert.current?.focus();
  }, [focus, text]);
  return (
    <div ref={alert} tabIndex={focus ? -1 : undefined} className="utrecht-alert utrecht-alert--error" role="alert">
      {text !== undefined ? <p className="utrecht-paragraph">{text}</p> : children}
      {support && <SupportContact />}
    </div>
  );
}
