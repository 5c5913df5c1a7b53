import { useQuery } from '@tanstack/react-query';
import { usersApi } from '../api/users-api';
import { Shell } from '../layout/Shell';
import { ErrorAlert } from '../components/ErrorAlert';
import { usePageTitle } from '../layout/use-page-title';
import { Loading } from '../components/Loading';

interface ServicesAnswer {
  organisation: { id: string; label: string } | null;
  dataRoles: { roleId: string; label: string }[];
  /** `signInUrl`: where a service that signs in through the portal starts its sign-in. */
  services: { id: string; name: string; description: string; url: string; signInUrl?: string }[];
}

const SERVICES_FAILED = 'Er is iets misgegaan bij het ophalen van je datavoorzieningen. Probeer het later nog eens.';

/** /permissies: the data services ('Datavoorzieningen') the person may use, with their data roles. */
export default function ServicesScreen() {
  usePageTitle('Datavoorzieningen');
  const services = useQuery({
    queryKey: ['services'],
    queryFn: () => usersApi<ServicesAnswer>('/services'),
    retry: false,
  });
  return (
    <Shell>
      <main className="dvp-main" id="inhoud">
        <h1 className="utrecht-heading-1">Datavoorzieningen</h1>
        {services.isPending && <Loading />}
        {services.isError && <ErrorAlert text={SERVICES_FAILED} />}
        {services.data && (
          <>
            {services.data.dataRoles.length > 0 && (
              <p className="utrecht-paragraph">
                Je datarollen: {services.data.dataRoles.map((r) => r.label).join(', ')}.
              </p>
            )}
            {services.data.services.length === 0 ? (
              <p className="utrecht-paragraph">
                Je hebt nog geen toegang tot datavoorzieningen. Vraag de beheerder van je organisatie om een datarol.
              </p>
            ) : (
              <ul className="dvp-cards">
                {services.data.services.map((service) => (
                  <li key={service.id} className="dvp-card">
                    <h2 className="utrecht-heading-3">{service.name}</h2>
                    <p className="utrecht-paragraph">{service.description}</p>
                    <a className="utrecht-link" href={service.signInUrl ?? service.url}>
                      Naar {service.name}
                      <span className="dvp-visually-hidden"> (opent de datavoorziening)</span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </main>
    </Shell>
  );
}
