import { RowButton } from './RowButton';
import { CardTable } from '../components/CardTable';
import { longDate, timeOfDay } from '../i18n/dates';
import type { OrganisationSummary } from './programme-api';

export type OrganisationAction = 'edit' | 'roles' | 'invite' | 'state';

/** '20 november 2026 om 09:05', the line breaking between the date and the time; or 'Nog nooit'. */
function LastSignIn({ at }: { at: string | null }) {
  if (at === null) return 'Nog nooit';
  return (
    <>
      <span className="dvp-nowrap">{longDate(at)}</span> <span className="dvp-nowrap">om {timeOfDay(at)}</span>
    </>
  );
}

interface OrganisationsTableProps {
  organisations: OrganisationSummary[];
  /** The list is being fetched again: these rows are about to change. */
  busy?: boolean;
  onAction(action: OrganisationAction, organisation: OrganisationSummary): void;
}

/**
 * The organisations of 'Programmabeheer': their code under the name ('Gedeactiveerd' between them when deactivated),
 * how many members, administrators and open invitations they have, the latest sign-in, their second-factor rule, and
 * the row actions ('Wijzigen', 'Datarollen', 'Beheerder uitnodigen', 'Deactiveren' or 'Activeren'), which name the
 * organisation to assistive technology ('Wijzigen: Gemeente Voorbeeldstad'). Where the columns do not fit (a phone)
 * each row is a card (`components/CardTable.tsx`).
 */
export function OrganisationsTable({ organisations, busy, onAction }: OrganisationsTableProps) {
  return (
    <CardTable label="Organisaties" caption="Organisaties van het programma" busy={busy} rows={organisations}>
      <thead>
        <tr>
          <th scope="col">Organisatie</th>
          <th scope="col">Leden</th>
          <th scope="col">Beheerders</th>
          <th scope="col">Openstaande uitnodigingen</th>
          <th scope="col">Laatst ingelogd</th>
          <th scope="col">Tweede factor</th>
          <th scope="col">Acties</th>
        </tr>
      </thead>
      <tbody>
        {organisations.map((organisation) => (
          <tr key={organisation.id}>
            <td data-label="Organisatie">
              {organisation.label}
              {!organisation.active && (
                <span className="dvp-row-state-line">
                  <span className="dvp-row-state">Gedeactiveerd</span>
                </span>
              )}
              <span className="dvp-row-note">
                <span className="dvp-visually-hidden">Code: </span>
                {organisation.id}
              </span>
            </td>
            <td data-label="Leden">{organisation.members}</td>
            <td data-label="Beheerders">{organisation.administrators}</td>
            <td data-label="Openstaande uitnodigingen" className="dvp-programme-pending">
              {organisation.pendingInvitations}
            </td>
            <td data-label="Laatst ingelogd">
              <LastSignIn at={organisation.lastSignIn} />
            </td>
            <td data-label="Tweede factor">{organisation.requiresAal2 ? 'Verplicht' : 'Niet verplicht'}</td>
            <td className="dvp-table__actions">
              <div className="dvp-row-actions">
                <RowButton label="Wijzigen" about={organisation.label} onPress={() => onAction('edit', organisation)} />
                <RowButton
                  label="Datarollen"
                  about={organisation.label}
                  onPress={() => onAction('roles', organisation)}
                />
                <RowButton
                  label="Beheerder uitnodigen"
                  about={organisation.label}
                  onPress={() => onAction('invite', organisation)}
                />
                {/* One button whose text turns over, so that the focus returns to it after either. */}
                <RowButton
                  label={organisation.active ? 'Deactiveren' : 'Activeren'}
                  about={organisation.label}
                  onPress={() => onAction('state', organisation)}
                />
              </div>
            </td>
          </tr>
        ))}
        {organisations.length === 0 && (
          <tr>
            <td colSpan={7}>Er zijn nog geen organisaties.</td>
          </tr>
        )}
      </tbody>
    </CardTable>
  );
}
