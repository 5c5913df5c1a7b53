import { useId, useRef, useState } from 'react';
import { InfoDialog } from '../components/InfoDialog';
import { longDateTime } from '../i18n/dates';
import { ConnectionGuide } from './ConnectionGuide';
import type { ProgrammeService } from './services-api';
import './services.css';

/**
 * An overlap is a whole number of hours, so an end within half an hour of this device's clock was an overlap of 0,
 * however far the device's clock and the server's differ.
 */
const STOPPED_MARGIN = 30 * 60_000;

/** What the previous secret does now: 'werkt niet meer', or until when it still works. */
function previousSecretText(validUntil: string): string {
  if (new Date(validUntil).getTime() <= Date.now() + STOPPED_MARGIN) return 'Het vorige geheim werkt niet meer.';
  return `Het vorige geheim blijft geldig tot ${longDateTime(validUntil)}.`;
}

interface ClientSecretDialogProps {
  service: ProgrammeService;
  /** The new secret, answered by the server this once. */
  secret: string;
  /** After a rotation: until when the previous secret works. */
  previousValidUntil?: string;
  onClose(): void;
}

/**
 * A new client secret, shown this once: the portal keeps only its hash. A click outside does not close it, since a
 * lost secret means making another one; Escape and 'Sluiten' do. The focus starts on 'Kopiëren', described by the
 * warning. Below it, how to connect the service, with a placeholder where the secret goes.
 */
export function ClientSecretDialog({ service, secret, previousValidUntil, onClose }: ClientSecretDialogProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no'>();

  async function copy() {
    setCopied(undefined);
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('no');
      input.current?.focus();
      input.current?.select();
    }
  }

  return (
    <InfoDialog title={`Clientgeheim van ${service.name}`} dismissable={false} onClose={onClose}>
      <div id={`${id}-warning`} className="utrecht-alert utrecht-alert--warning">
        <p className="utrecht-paragraph">
          Je ziet dit clientgeheim maar één keer. Kopieer het nu naar de instellingen van {service.name}. Het portaal
          bewaart alleen een hash van het geheim, dus niemand kan het je later nog laten zien. Ben je het kwijt, maak
          dan een nieuw geheim met 'Nieuw geheim'.
        </p>
      </div>
      {service.oidc && (
        <dl className="dvp-service-values">
          <div>
            <dt>Client-id</dt>
            <dd>{service.oidc.clientId}</dd>
          </div>
        </dl>
      )}
      <div className="utrecht-form-field utrecht-form-field--text dvp-secret-field">
        <div className="utrecht-form-field__label">
          <label className="utrecht-form-label" htmlFor={`${id}-secret`}>
            Clientgeheim
          </label>
        </div>
        <div className="utrecht-form-field__input dvp-secret-field__row">
          <input
            ref={input}
            id={`${id}-secret`}
            type="text"
            className="utrecht-textbox utrecht-textbox--html-input"
            readOnly
            value={secret}
            autoComplete="off"
            spellCheck={false}
          />
          <button
            type="button"
            className="utrecht-button utrecht-button--secondary-action"
            aria-describedby={`${id}-warning`}
            onClick={() => void copy()}
            // biome-ignore lint/a11y/noAutofocus: the warning is read out with the button, before anything is done
            autoFocus
          >
            Kopiëren
          </button>
        </div>
        <p role="status" className="utrecht-paragraph dvp-secret-field__status">
          {copied === 'yes' && 'Het clientgeheim is gekopieerd.'}
          {copied === 'no' && 'Kopiëren is niet gelukt. Selecteer het geheim en kopieer het zelf.'}
        </p>
      </div>
      {previousValidUntil && <p className="utrecht-paragraph">{previousSecretText(previousValidUntil)}</p>}
      <ConnectionGuide service={service} portalOrigin={window.location.origin} />
    </InfoDialog>
  );
}
