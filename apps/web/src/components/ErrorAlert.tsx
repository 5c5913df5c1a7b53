import type { ReactNode } from 'react';
import { SupportContact } from './SupportContact';

interface ErrorAlertProps {
  /** One sentence; or several paragraphs as children. */
  text?: string;
  children?: ReactNode;
  /** Adds who to turn to when the problem persists: the support address, or the organisation's helpdesk. */
  support?: boolean;
}

/** A red alert read out at once. */
export function ErrorAlert({ text, children, support }: ErrorAlertProps) {
  return (
    <div className="utrecht-alert utrecht-alert--error" role="alert">
      {text !== undefined ? <p className="utrecht-paragraph">{text}</p> : children}
      {support && <SupportContact />}
    </div>
  );
}
