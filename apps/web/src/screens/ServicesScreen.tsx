import { useQuery } from '@tanstack/react-query';
import { useCurrentUser } from '../api/queries';
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

/**
 * /permissies: the data services ('Datavoorzieningen') the person may use through the organisation they work for now
 * (the server lists only those), named, with their data roles there. A person of several organisations is told that
 * the switch in the menu shows those of the others.
 */
export default function ServicesScreen() {
  usePageTitle('Datavoorzieningen');
  const severalOrganisations = (useCurrentUser().data?.organisations?.length ?? 0) > 1;
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
            {services.data.organisation && (
              <p className="utrecht-paragraph">
                Dit zijn de datavoorzieningen van {services.data.organisation.label}.
                {severalOrganisations &&
                  ' Wil je die van een andere organisatie zien? Wissel dan van organisatie in het menu.'}
              </p>
            )}
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
