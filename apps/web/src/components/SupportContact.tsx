import { usePortalConfig } from '../api/portal-config';

/** Said when an answer did not arrive: the connection, not what the person filled in, is the problem. */
/** Said when the server answered 503: too busy for now, nothing wrong with what the person did. */
export const BUSY = 'Het is nu erg druk in het portaal. Probeer het over een minuut opnieuw.';

export const UNREACHABLE =
  'De server van het portaal is niet bereikbaar. Controleer je internetverbinding en probeer het ' +
  'over een paar minuten nog eens.';

/** Said where no address for support is set (SUPPORT_EMAIL): someone to turn to all the same. */
const NO_SUPPORT_ADDRESS = 'Neem dan contact op met de helpdesk van je organisatie.';

/**
 * Who to turn to when a problem persists: 'Blijft dit gebeuren? Mail dan naar {address}.', or, when the portal has no
 * support address, the organisation's helpdesk (never 'mail to support' without an address to mail to).
 */
export function SupportContact() {
  const support = usePortalConfig().data?.supportEmail;
  return (
    <p className="utrecht-paragraph">
      Blijft dit gebeuren?{' '}
      {support ? (
        <>
          Mail dan naar{' '}
          <a className="utrecht-link" href={`mailto:${support}`}>
            {support}
          </a>
          .
        </>
      ) : (
        NO_SUPPORT_ADDRESS
      )}
    </p>
  );
}
