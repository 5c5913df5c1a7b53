import { RowButton } from './RowButton';
import { CardTable } from '../components/CardTable';
import type { OrganisationSummary } from './programme-api';
import type { ProgrammeService } from './services-api';

export type ServiceAction = 'edit' | 'connect' | 'rotate' | 'remove';

/** Who may use the service, in words: 'Alle leden van Gemeente Voorbeeldstad', 'Ruimte en wonen van DEGO'. */
function accessOf(service: ProgrammeService, organisations: OrganisationSummary[]): string[] {
  const byId = new Map(organisations.map((organisation) => [organisation.id, organisation]));
  const roles = service.access.dataRoles.map((object) => {
    const [roleId, orgId] = object.split('_') as [string, string];
    const organisation = byId.get(orgId);
    const role = organisation?.dataRoles.find((r) => r.id === roleId);
    return role && organisation ? `${role.label} van ${organisation.label}` : object;
  });
  return [...service.access.organisations.map((id) => `Alle leden van ${byId.get(id)?.label ?? id}`), ...roles];
}

/** How the service trusts the portal: forward-auth and an OpenID Connect client, each on a line. */
function connectionsOf(service: ProgrammeService): string[] {
  const client = service.oidc;
  return [
    ...(service.forwardAuth ? ['Forward-auth'] : []),
    ...(client
      ? [`OpenID Connect: ${client.clientId} (${client.type === 'confidential' ? 'vertrouwelijk' : 'openbaar'})`]
      : []),
  ];
}

interface ServicesTableProps {
  services: ProgrammeService[];
  /** To name the organisations and data roles of the access rules. */
  organisations: OrganisationSummary[];
  busy?: boolean;
  onAction(action: ServiceAction, service: ProgrammeService): void;
}

/**
 * The data services of 'Programmabeheer': name, code and address, who may use them, how they are connected, and the
 * row actions ('Wijzigen', 'Koppelen', 'Nieuw geheim' for a confidential client, 'Verwijderen'), which name the
 * service to assistive technology. On a phone each row is a card.
 */
export function ServicesTable({ services, organisations, busy, onAction }: ServicesTableProps) {
  return (
    <div className="dvp-services">
      <CardTable label="Datavoorzieningen" caption="Datavoorzieningen van het programma" busy={busy} rows={services}>
        <thead>
          <tr>
            <th scope="col">Datavoorziening</th>
            <th scope="col">Wie mag hem gebruiken</th>
            <th scope="col">Koppeling</th>
            <th scope="col">Acties</th>
          </tr>
        </thead>
        <tbody>
          {services.map((service) => {
            const connections = connectionsOf(service);
            return (
              <tr key={service.id}>
                <td data-label="Datavoorziening">
                  {service.name}
                  <span className="dvp-row-note">
                    <span className="dvp-visually-hidden">Code: </span>
                    {service.id}
                  </span>
                  <span className="dvp-row-note dvp-service-url">{service.url}</span>
                </td>
                <td data-label="Wie mag hem gebruiken">
                  <ul className="dvp-plain-list">
                    {accessOf(service, organisations).map((who) => (
                      <li key={who}>{who}</li>
                    ))}
                  </ul>
                </td>
                <td data-label="Koppeling">
                  {connections.length === 0 ? (
                    'Geen'
                  ) : (
                    <ul className="dvp-plain-list">
                      {connections.map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="dvp-table__actions">
                  <div className="dvp-row-actions">
                    <RowButton label="Wijzigen" about={service.name} onPress={() => onAction('edit', service)} />
                    <RowButton label="Koppelen" about={service.name} onPress={() => onAction('connect', service)} />
                    {service.oidc?.type === 'confidential' && (
                      <RowButton
                        label="Nieuw geheim"
                        about={service.name}
                        onPress={() => onAction('rotate', service)}
                      />
                    )}
                    <RowButton label="Verwijderen" about={service.name} onPress={() => onAction('remove', service)} />
                  </div>
                </td>
              </tr>
            );
          })}
          {services.length === 0 && (
            <tr>
              <td colSpan={4}>Er zijn nog geen datavoorzieningen.</td>
            </tr>
          )}
        </tbody>
      </CardTable>
    </div>
  );
}
