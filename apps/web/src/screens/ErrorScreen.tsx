import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { frontend, idpErrorOf } from '../api/ory';
import { usePortalConfig } from '../api/portal-config';
import { ErrorAlert } from '../components/ErrorAlert';
import { usePageTitle } from '../layout/use-page-title';

interface ReportedError {
  id?: string;
  code?: number;
  reason?: string;
  message?: string;
}

/** What went wrong, in Dutch, by the error's id (docs/kratos-compatibility.md), else by its status. */
const EXPLANATIONS: Record<string, string> = {
  security_csrf_violation:
    'Het formulier kon niet veilig worden verstuurd. Misschien was het verlopen of in een ander venster geopend.',
  security_identity_mismatch: 'Je bent intussen met een ander account ingelogd.',
  self_service_flow_expired: 'Het formulier was verlopen.',
  self_service_flow_return_to_forbidden: 'Het adres waar je hierna heen zou gaan, hoort niet bij het portaal.',
  session_inactive: 'Je bent niet ingelogd.',
};

function explanationOf(error: ReportedError): string {
  const known = error.id ? EXPLANATIONS[error.id] : undefined;
  if (known) return known;
  if ((error.code ?? 500) >= 500) return 'Er ging iets mis in het portaal. Dat ligt niet aan jou.';
  return 'Het portaal kon je verzoek niet afhandelen.';
}

/**
 * The error page: reads `?id=`, shows the error, a support address and the way back. What went wrong
 * is said in Dutch; the provider's own message, which is English, follows only as a detail for the helpdesk, marked
 * as English so that screen readers pronounce it as such (WCAG 3.1.2).
 */
export default function ErrorScreen() {
  usePageTitle('Er is een fout opgetreden');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const config = usePortalConfig();
  const [reported, setReported] = useState<ReportedError>();
  const id = params.get('id');

  useEffect(() => {
    if (!id) return;
    frontend
      .getFlowError(id)
      .then((flowError) => setReported((flowError.error as ReportedError | undefined) ?? {}))
      .catch(async (error: unknown) => {
        const { status } = await idpErrorOf(error);
        // An unknown, forbidden or expired error report: back to the start.
        if (status === 404 || status === 403 || status === 410) navigate('/', { replace: true });
      });
  }, [id, navigate]);

  const support = config.data?.supportEmail;
  const technical = reported?.message ?? reported?.reason;
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
        {reported && <p className="utrecht-paragraph">{explanationOf(reported)}</p>}
        {technical && (
          <p className="utrecht-paragraph dvp-technical">
            Technische melding voor de helpdesk (in het Engels): <span lang="en">{technical}</span>
          </p>
        )}
      </ErrorAlert>
      <p className="utrecht-paragraph">
        <Link className="utrecht-link" to="/">
          Naar login
        </Link>
      </p>
    </main>
  );
}
