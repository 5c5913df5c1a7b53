import { type MouseEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '../overview/ConfirmDialog';

interface ContinueLinkProps {
  /** The data service's sign-in waiting at the portal, if any: a page of the server, not of the web app. */
  service?: string;
  /** Where the portal goes on otherwise. */
  next: string;
  /** New backup codes are on the screen and not yet confirmed: going on drops them, which the person is asked first. */
  unconfirmedCodes: boolean;
}

/**
 * 'Verder naar het portaal' (or 'Verder naar de datavoorziening') after the second factor's set-up. New backup codes
 * count only once confirmed (as in Kratos); a person who goes on before that is told so, instead of leaving with codes
 * that do not work.
 */
export function ContinueLink({ service, next, unconfirmedCodes }: ContinueLinkProps) {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const ask = (event: MouseEvent) => {
    if (!unconfirmedCodes) return;
    event.preventDefault();
    setAsking(true);
  };
  const goOn = () => (service ? window.location.assign(service) : navigate(next));
  return (
    <>
      <p className="utrecht-paragraph">
        {service ? (
          <a className="utrecht-link" href={service} onClick={ask}>
            Verder naar de datavoorziening
          </a>
        ) : (
          <Link className="utrecht-link" to={next} onClick={ask}>
            Verder naar het portaal
          </Link>
        )}
      </p>
      {asking && (
        <ConfirmDialog
          title="Back-upcodes niet bevestigd"
          confirmLabel="Verder zonder deze codes"
          danger
          busy={false}
          onClose={() => setAsking(false)}
          onConfirm={goOn}
        >
          <p className="utrecht-paragraph">
            Je hebt deze back-upcodes nog niet bevestigd. Ze werken pas als je ‘Back-upcodes bevestigen’ kiest. Ga je nu
            verder, dan vervallen ze.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
