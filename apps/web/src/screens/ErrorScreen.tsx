import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { frontend, idpErrorOf } from '../api/ory';
import { usePortalConfig } from '../api/queries';
import { ErrorAlert } from '../components/ErrorAlert';
import { usePageTitle } from '../layout/use-page-title';

/** The error page (spec §2, §4): reads `?id=`, shows the error, a support address and the way back. */
export default function ErrorScreen() {
  usePageTitle('Er is een fout opgetreden');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const config = usePortalConfig();
  const [reason, setReason] = useState<string>();
  const id = params.get('id');

  useEffect(() => {
    if (!id) return;
    frontend
      .getFlowError({ id })
      .then((flowError) => setReason((flowError.error as { reason?: string; message?: string } | undefined)?.message))
      .catch(async (error: unknown) => {
        const { status } = await idpErrorOf(error);
        // An unknown, forbidden or expired error report: back to the start (spec §4).
        if (status === 404 || status === 403 || status === 410) navigate('/', { replace: true });
      });
  }, [id, navigate]);

  const support = config.data?.supportEmail;
  return (
    <main className="dvp-main" id="inhoud">
      <h1 className="utrecht-heading-1">Er is een fout opgetreden</h1>
      <ErrorAlert>
        <p className="utrecht-paragraph">
          Er is een fout opgetreden. Blijft dit aanhouden,{' '}
          {support ? (
            <>
              mail dan naar{' '}
              <a className="utrecht-link" href={`mailto:${support}`}>
                {support}
              </a>
            </>
          ) : (
            // No address to mail to (SUPPORT_EMAIL not set): someone to turn to all the same.
            'neem dan contact op met de helpdesk van je organisatie'
          )}
          .
        </p>
        {reason && <p className="utrecht-paragraph">Melding: {reason}</p>}
      </ErrorAlert>
      <p className="utrecht-paragraph">
        <Link className="utrecht-link" to="/">
          Naar login
        </Link>
      </p>
    </main>
  );
}
