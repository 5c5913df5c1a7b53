import type { FormEventHandler, ReactNode } from 'react';
import { ErrorSummary } from '../components/ErrorSummary';
import { LogOutOthersOffer } from '../sessions/LogOutOthersOffer';
import { SaveOutcomeAlert, type SaveOutcome } from './settings-save';

interface SettingsFormSectionProps {
  /** The heading's id; the error summary's title is `<id>-fouten`. */
  id: string;
  title: string;
  /** A line under the heading, before the form. */
  intro?: ReactNode;
  saveLabel: string;
  /** The error summary's messages, and what focuses it (a submit attempt). */
  errors: string[];
  submitCount: number;
  submitting: boolean;
  /** False while the settings flow loads: the save waits for it. */
  ready: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  outcome: SaveOutcome;
  children: ReactNode;
}

/**
 * One section of the settings screen with its own form: heading, error summary, the fields, the section's save button
 * directly after them, what the save came to, and after a changed password or address the offer to end the other
 * sessions.
 */
export function SettingsFormSection(props: SettingsFormSectionProps) {
  const { id, outcome } = props;
  return (
    <section aria-labelledby={id} className="dvp-settings-section">
      <h2 id={id} className="utrecht-heading-2">
        {props.title}
      </h2>
      {props.intro}
      <form className="dvp-form dvp-settings-form" noValidate onSubmit={props.onSubmit} aria-busy={props.submitting}>
        <ErrorSummary messages={props.errors} focusOn={props.submitCount} titleId={`${id}-fouten`} />
        {props.children}
        <div className="dvp-links">
          <button
            type="submit"
            className="utrecht-button utrecht-button--primary-action"
            disabled={props.submitting || !props.ready}
          >
            {props.saveLabel}
          </button>
        </div>
      </form>
      <SaveOutcomeAlert outcome={outcome} />
      {outcome?.kind === 'ok' && outcome.secrets && <LogOutOthersOffer />}
    </section>
  );
}
