import { Fragment, memo } from 'react';
import { Link } from 'react-router';
import type { PortalUser } from '../api/users-api';
import { EmailAddress } from './EmailAddress';
import { factorNamesOf } from './factors';
import { isGuest, isLocked, RowActions, type RowActionKind, rowActionsOf } from './RowActions';
import { fullName, type SortKey } from './sorting';
import { longDate, longDateTime, timeOfDay } from '../i18n/dates';
import { CardTable } from '../components/CardTable';

/** Short values in a list ('Sociaal domein, Ruimte en wonen'): the line wraps after a comma, not inside a value. */
function List({ items }: { items: string[] }) {
  return items.map((item, index) => (
    <Fragment key={item}>
      {index > 0 && ', '}
      <span className="dvp-nowrap">{item}</span>
    </Fragment>
  ));
}

/** 'Tweede factor: authenticator-app, beveiligingssleutel', for the home organisation (the Users API's `factors`). */
function FactorsNote({ user }: { user: PortalUser }) {
  const names = factorNamesOf(user);
  if (!names) return null;
  return (
    <span className="dvp-row-note">
      {names.length > 0 ? (
        <>
          Tweede factor: <List items={names} />
        </>
      ) : (
        'Geen tweede factor'
      )}
    </span>
  );
}

/**
 * 'Laatst ingelogd: 20 november 2026 om 09:05' or 'Nog nooit ingelogd', for members; a narrow column breaks the line
 * between the date and the time, not inside either.
 */
function LastSignInNote({ user }: { user: PortalUser }) {
  if (user.invitation || user.lastSignInAt === undefined) return null;
  if (user.lastSignInAt === null) return <span className="dvp-row-note">Nog nooit ingelogd</span>;
  return (
    <span className="dvp-row-note">
      Laatst ingelogd: <span className="dvp-nowrap">{longDate(user.lastSignInAt)}</span>{' '}
      <span className="dvp-nowrap">om {timeOfDay(user.lastSignInAt)}</span>
    </span>
  );
}

/** 'Logboek' narrowed to this person's address: what they did and what was done to them. */
const logOf = (user: PortalUser) => `/logboek?${new URLSearchParams({ persoon: user.traits.email })}`;

const COLUMNS = ['Naam', 'E-mailadres', 'Type gebruiker', 'Datarol', 'Aangemaakt', 'Acties'] as const;
const SORTED_BY: Partial<Record<(typeof COLUMNS)[number], SortKey>> = {
  Naam: 'name',
  'E-mailadres': 'email',
  'Type gebruiker': 'type',
  Aangemaakt: 'created',
};

interface RowProps {
  user: PortalUser;
  me: string;
  onAction(kind: RowActionKind, user: PortalUser): void;
}

/** One user; memoised, so that a new page or search renders only the rows that are new. */
const UserRow = memo(function UserRow({ user, me, onAction }: RowProps) {
  return (
    <tr className={user.state === 'inactive' ? 'dvp-row--blocked' : undefined}>
      <td data-label="Naam">
        {fullName(user)}
        {user.state === 'inactive' && (
          // A line of its own whose only content is an inline block, which the row's strike-through does not cross.
          <span className="dvp-row-state-line">
            <span className="dvp-row-state">Geblokkeerd</span>
          </span>
        )}
        {user.invitation && (
          <>
            <span className="dvp-row-state">Uitgenodigd</span>
            <span className="dvp-row-note">Geldig tot {longDate(user.invitation.expiresAt)}</span>
          </>
        )}
        {isGuest(user) && <span className="dvp-row-note">Account van een andere organisatie</span>}
        <FactorsNote user={user} />
        <LastSignInNote user={user} />
        <span className="dvp-row-note">
          <Link className="utrecht-link" to={logOf(user)} aria-label={`Logboek van ${fullName(user)}`}>
            Logboek
          </Link>
        </span>
        {isLocked(user) && user.lockedUntil && (
          <>
            <span className="dvp-row-state">Vergrendeld</span>
            <span className="dvp-row-note">Te vaak een verkeerd wachtwoord, tot {longDateTime(user.lockedUntil)}</span>
          </>
        )}
      </td>
      <td data-label="E-mailadres">
        <EmailAddress address={user.traits.email} />
      </td>
      <td data-label="Type gebruiker">{user.userType.id === 'administrator' ? 'Beheerder' : 'Medewerker'}</td>
      <td data-label="Datarol">
        <List items={user.permissions.filter((p) => p.namespace === 'subdivisions').map((p) => p.label)} />
      </td>
      <td data-label="Aangemaakt">{longDate(user.created_at)}</td>
      <td className="dvp-table__actions">
        <RowActions user={user} actions={rowActionsOf(user, me)} onAction={(kind) => onAction(kind, user)} />
      </td>
    </tr>
  );
});

interface UsersTableProps {
  /** The rows of this page. */
  users: PortalUser[];
  sort: SortKey;
  /** What the caption says the table is (the organisation, and the page when there are several). */
  caption: string;
  /** The row for an empty page: no users at all, or none found. */
  empty: string;
  /** The signed-in administrator's id: nobody blocks or deletes themselves. */
  me: string;
  /** Another page, order or search is being fetched: these rows are about to change. */
  busy?: boolean;
  onAction(kind: RowActionKind, user: PortalUser): void;
}

/**
 * The overview's six columns, one row per user; where they do not fit (a phone, a tablet, a laptop beside the sidebar,
 * or long names and addresses) each row is a card (`components/CardTable.tsx`).
 */
export function UsersTable({ users, sort, caption, empty, me, busy, onAction }: UsersTableProps) {
  return (
    <CardTable label="Gebruikers" caption={caption} busy={busy} rows={users}>
      <thead>
        <tr>
          {COLUMNS.map((column) => {
            const key = SORTED_BY[column];
            return (
              <th
                key={column}
                scope="col"
                aria-sort={key && key === sort ? (key === 'created' ? 'descending' : 'ascending') : undefined}
              >
                {column}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {users.map((user) => (
          <UserRow key={user.id} user={user} me={me} onAction={onAction} />
        ))}
        {users.length === 0 && (
          <tr>
            <td colSpan={6}>{empty}</td>
          </tr>
        )}
      </tbody>
    </CardTable>
  );
}
