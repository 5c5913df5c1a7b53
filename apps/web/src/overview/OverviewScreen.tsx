import { useEffect, useMemo, useRef, useState } from 'react';
import { Navigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../api/queries';
import { secondFactorGate, usersApi, withdrawInvitation, type PortalUser } from '../api/users-api';
import { downloadFile } from '../components/download';
import { ErrorAlert } from '../components/ErrorAlert';
import { useToast } from '../components/Toasts';
import { Shell } from '../layout/Shell';
import { usePageTitle } from '../layout/use-page-title';
import { ConfirmDialog } from './ConfirmDialog';
import { failureOf, type DialogFailure } from './DialogError';
import { isGuest, isLocked, RowActions, rowActionsOf } from './RowActions';
import { SORT_OPTIONS, fullName, longDate, longDateTime, searchUsers, sortUsers, type SortKey } from './sorting';
import { UserFormDialog } from './UserFormDialog';
import { usersCsv, usersCsvName } from './users-csv';
import { Loading } from '../components/Loading';
import './overview.css';

type Action =
  | { kind: 'new' }
  | { kind: 'edit' | 'block' | 'unblock' | 'delete' | 'reset' | 'withdraw' | 'unlock' | 'signout'; user: PortalUser }
  | undefined;

/** An e-mail address that may wrap before its '@' in a narrow column, and nowhere else. */
function EmailAddress({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return <>{address}</>;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}

/** Whom a confirmation is about: the name and address beside the question. */
const personOf = (user: PortalUser) => ({ name: fullName(user), email: user.traits.email });

/** The administrators' user overview at `/`: sort, search, the six columns and the row actions. */
export default function OverviewScreen() {
  usePageTitle('Overzicht');
  const me = useCurrentUser();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [sort, setSort] = useState<SortKey>('type');
  const [search, setSearch] = useState('');
  const [action, setAction] = useState<Action>();
  // Why the open confirmation's last attempt failed; shown in the dialog, which stays open.
  const [failure, setFailure] = useState<DialogFailure>();
  // Focus returns to what opened a dialog, or to 'Nieuwe gebruiker toevoegen' when that row action is gone.
  const opener = useRef<HTMLElement | null>(null);
  const newUserButton = useRef<HTMLButtonElement>(null);
  const open = (next: Action) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setFailure(undefined);
    setAction(next);
  };
  const returnFocus = useRef(false);
  const close = () => {
    returnFocus.current = true;
    setFailure(undefined);
    setAction(undefined);
  };
  // After the dialog is gone (its focus trap included), so nothing pulls the focus back into it.
  useEffect(() => {
    if (action || !returnFocus.current) return;
    returnFocus.current = false;
    const frame = window.requestAnimationFrame(() =>
      (opener.current?.isConnected ? opener.current : newUserButton.current)?.focus(),
    );
    return () => window.cancelAnimationFrame(frame);
  }, [action]);
  const [busy, setBusy] = useState(false);
  const users = useQuery({
    queryKey: ['users', 'list'],
    queryFn: () => usersApi<PortalUser[]>('/users'),
    enabled: Boolean(me.data?.isAdmin) && me.data !== undefined && !secondFactorGate(me.data),
    retry: false,
  });
  const shown = useMemo(() => sortUsers(searchUsers(users.data ?? [], search), sort), [users.data, search, sort]);

  if (me.isPending) return null;
  if (me.isError || !me.data) return <Navigate to="/login" replace />;
  const gate = secondFactorGate(me.data);
  if (gate) return <Navigate to={gate} replace />;
  if (!me.data.isAdmin) return <Navigate to="/permissies" replace />;

  const done = async (message: string) => {
    close();
    toast({ title: message, variant: 'success' });
    await queryClient.invalidateQueries({ queryKey: ['users'] });
  };
  /**
   * Runs a confirmed action: on success the dialog closes with a toast; on failure it stays open with the reason in it
   * (the server's, or `fallback`: the spec's text; `notFound` the spec's text for a 404).
   */
  async function run(work: () => Promise<unknown>, success: string, fallback: string, notFound?: string) {
    setBusy(true);
    setFailure(undefined);
    try {
      await work();
      await done(success);
    } catch (error) {
      setFailure(failureOf(error, fallback, { notFound }));
    } finally {
      setBusy(false);
    }
  }
  const setState = (user: PortalUser, state: 'active' | 'inactive') =>
    usersApi(`/users/${user.id}`, { method: 'PUT', body: { schema_id: user.schema_id, state, traits: user.traits } });

  return (
    <Shell>
      <main className="dvp-main" id="inhoud">
        <h1 className="utrecht-heading-1">Overzicht</h1>
        <div className="dvp-toolbar">
          <button
            type="button"
            className="utrecht-button utrecht-button--primary-action"
            ref={newUserButton}
            disabled={users.isPending || users.isError}
            onClick={() => open({ kind: 'new' })}
          >
            Nieuwe gebruiker toevoegen
          </button>
          <div className="utrecht-form-field">
            <label className="utrecht-form-label" htmlFor="sorteer">
              Sorteer op
            </label>
            <select
              id="sorteer"
              className="utrecht-select utrecht-select--html-select"
              value={sort}
              onChange={(e) => setSort(e.target.value as SortKey)}
            >
              {SORT_OPTIONS.map((option) => (
                <option key={option.key} value={option.key}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <div className="utrecht-form-field">
            <label className="utrecht-form-label" htmlFor="zoek">
              Zoek gebruiker
            </label>
            <input
              id="zoek"
              type="search"
              className="utrecht-textbox utrecht-textbox--html-input"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
        </div>
        {users.isPending && <Loading text="Gebruikers laden…" />}
        {/* Screen readers hear how many users a search leaves; sighted people see the table change. */}
        <p role="status" className="dvp-visually-hidden">
          {users.data && search.trim()
            ? `${shown.length} ${shown.length === 1 ? 'gebruiker' : 'gebruikers'} gevonden`
            : ''}
        </p>
        {users.isError && (
          <ErrorAlert support>
            <p className="utrecht-paragraph">Er is iets misgegaan.</p>
            <p className="utrecht-paragraph">Kan geen gebruikers ophalen, probeer het later nog eens.</p>
          </ErrorAlert>
        )}
        {users.data && (
          // biome-ignore lint/a11y: a focusable region lets keyboard users scroll a table wider than the screen
          <div className="dvp-table-scroll" role="region" aria-label="Gebruikers" tabIndex={0}>
            <table className="dvp-table">
              <caption className="dvp-visually-hidden">Gebruikers van {me.data.activeOrg?.label}</caption>
              <thead>
                <tr>
                  {(['Naam', 'E-mailadres', 'Type gebruiker', 'Datarol', 'Aangemaakt', 'Acties'] as const).map(
                    (column) => {
                      const key = {
                        Naam: 'name',
                        'E-mailadres': 'email',
                        'Type gebruiker': 'type',
                        Aangemaakt: 'created',
                      }[column as string] as SortKey | undefined;
                      return (
                        <th
                          key={column}
                          scope="col"
                          aria-sort={key && key === sort ? (key === 'created' ? 'descending' : 'ascending') : undefined}
                        >
                          {column}
                        </th>
                      );
                    },
                  )}
                </tr>
              </thead>
              <tbody>
                {shown.map((user) => (
                  <tr key={user.id} className={user.state === 'inactive' ? 'dvp-row--blocked' : undefined}>
                    <td data-label="Naam">
                      {fullName(user)}
                      {user.state === 'inactive' && <span className="dvp-visually-hidden"> (geblokkeerd)</span>}
                      {user.invitation && (
                        <>
                          <span className="dvp-row-state">Uitgenodigd</span>
                          <span className="dvp-row-note">Geldig tot {longDate(user.invitation.expiresAt)}</span>
                        </>
                      )}
                      {isGuest(user) && <span className="dvp-row-note">Account van een andere organisatie</span>}
                      {isLocked(user) && (
                        <>
                          <span className="dvp-row-state">Vergrendeld</span>
                          <span className="dvp-row-note">
                            Te vaak een verkeerd wachtwoord, tot {longDateTime(user.lockedUntil!)}
                          </span>
                        </>
                      )}
                    </td>
                    <td data-label="E-mailadres">
                      <EmailAddress address={user.traits.email} />
                    </td>
                    <td data-label="Type gebruiker">
                      {user.userType.id === 'administrator' ? 'Beheerder' : 'Medewerker'}
                    </td>
                    <td data-label="Datarol">
                      {user.permissions
                        .filter((p) => p.namespace === 'subdivisions')
                        .map((p) => p.label)
                        .join(', ')}
                    </td>
                    <td data-label="Aangemaakt">{longDate(user.created_at)}</td>
                    <td className="dvp-table__actions">
                      <RowActions
                        user={user}
                        actions={rowActionsOf(user, me.data.identity.id)}
                        onAction={(kind) => open({ kind, user })}
                      />
                    </td>
                  </tr>
                ))}
                {shown.length === 0 && (
                  <tr>
                    <td colSpan={6}>
                      {search.trim()
                        ? `Geen gebruikers gevonden bij '${search.trim()}'. ` +
                          'Zoek op een deel van de naam of het e-mailadres.'
                        : 'Er zijn nog geen gebruikers.'}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        )}
        {users.data && shown.length > 0 && (
          <p className="dvp-export">
            <button
              type="button"
              className="utrecht-button utrecht-button--secondary-action"
              onClick={() =>
                downloadFile(
                  usersCsvName(me.data.activeOrg?.id ?? 'organisatie', new Date()),
                  usersCsv(shown),
                  'text/csv;charset=utf-8',
                )
              }
            >
              {search.trim()
                ? `Deze ${shown.length === 1 ? 'gebruiker' : `${shown.length} gebruikers`} downloaden (CSV)`
                : 'Alle gebruikers downloaden (CSV)'}
            </button>
          </p>
        )}
        {(action?.kind === 'new' || action?.kind === 'edit') && (
          <UserFormDialog
            me={me.data}
            user={action.kind === 'edit' ? action.user : undefined}
            onClose={close}
            onDone={(message) => void done(message)}
          />
        )}
        {action?.kind === 'block' && (
          <ConfirmDialog
            title="Gebruiker blokkeren"
            confirmLabel="Blokkeren"
            danger
            busy={busy}
            person={personOf(action.user)}
            error={failure}
            onClose={close}
            onConfirm={() =>
              void run(
                () => setState(action.user, 'inactive'),
                'Gebruiker geblokkeerd.',
                'Fout opgetreden bij wijzigen gebruiker status.',
              )
            }
          >
            <p className="utrecht-paragraph">Weet je zeker dat je de gebruiker wil blokkeren?</p>
          </ConfirmDialog>
        )}
        {action?.kind === 'unblock' && (
          <ConfirmDialog
            title="Gebruiker deblokkeren"
            confirmLabel="Deblokkeren"
            busy={busy}
            person={personOf(action.user)}
            error={failure}
            onClose={close}
            onConfirm={() =>
              void run(
                () => setState(action.user, 'active'),
                'Gebruiker gedeblokkeerd.',
                'Fout opgetreden bij wijzigen gebruiker status.',
              )
            }
          >
            <p className="utrecht-paragraph">Weet je zeker dat je de gebruiker wil deblokkeren?</p>
          </ConfirmDialog>
        )}
        {action?.kind === 'delete' && isGuest(action.user) && (
          <ConfirmDialog
            title="Gebruiker uit je organisatie verwijderen"
            confirmLabel="Verwijderen"
            danger
            busy={busy}
            person={personOf(action.user)}
            error={failure}
            onClose={close}
            onConfirm={() =>
              void run(
                () => usersApi(`/users?id=${action.user.id}`, { method: 'DELETE' }),
                'Gebruiker uit je organisatie verwijderd.',
                'Fout opgetreden bij verwijderen gebruiker.',
              )
            }
          >
            <p className="utrecht-paragraph">
              Weet je zeker dat je {fullName(action.user)} uit je organisatie wilt verwijderen? Het account blijft
              bestaan voor de andere organisatie(s).
            </p>
          </ConfirmDialog>
        )}
        {action?.kind === 'withdraw' && action.user.invitation && (
          <ConfirmDialog
            title="Uitnodiging intrekken"
            confirmLabel="Intrekken"
            danger
            busy={busy}
            person={personOf(action.user)}
            error={failure}
            onClose={close}
            onConfirm={() =>
              void run(
                () => withdrawInvitation(action.user.invitation!.id),
                'Uitnodiging ingetrokken.',
                'Intrekken van de uitnodiging is niet gelukt. Probeer het later nog eens.',
              )
            }
          >
            <p className="utrecht-paragraph">
              Weet je zeker dat je de uitnodiging van {fullName(action.user)} ({action.user.traits.email}) wilt
              intrekken? De uitnodiging vervalt dan en {fullName(action.user)} wordt geen lid van{' '}
              {me.data.activeOrg?.label}.
            </p>
          </ConfirmDialog>
        )}
        {action?.kind === 'delete' && !isGuest(action.user) && (
          <ConfirmDialog
            title="Gebruiker verwijderen"
            confirmLabel="Verwijderen"
            danger
            busy={busy}
            person={personOf(action.user)}
            error={failure}
            onClose={close}
            onConfirm={() =>
              void run(
                () => usersApi(`/users?id=${action.user.id}`, { method: 'DELETE' }),
                'Gebruiker verwijderd.',
                'Fout opgetreden bij verwijderen gebruiker.',
              )
            }
          >
            <p className="utrecht-paragraph">Weet je zeker dat je de gebruiker wil verwijderen?</p>
          </ConfirmDialog>
        )}
        {action?.kind === 'unlock' && (
          <ConfirmDialog
            title="Account ontgrendelen"
            confirmLabel="Ontgrendelen"
            busy={busy}
            person={personOf(action.user)}
            error={failure}
            onClose={close}
            onConfirm={() =>
              void run(
                () => usersApi(`/users/${action.user.id}/lock`, { method: 'DELETE' }),
                'Account ontgrendeld.',
                'Ontgrendelen van het account is niet gelukt.',
              )
            }
          >
            <p className="utrecht-paragraph">
              Het account van {fullName(action.user)} is vergrendeld omdat er te vaak een verkeerd wachtwoord is
              ingevuld. Weet je zeker dat je het account wil ontgrendelen? Doe dit alleen als je weet dat{' '}
              {fullName(action.user)} het zelf was.
            </p>
          </ConfirmDialog>
        )}
        {action?.kind === 'signout' && (
          <ConfirmDialog
            title="Afmelden op alle apparaten"
            confirmLabel="Afmelden"
            danger
            busy={busy}
            person={personOf(action.user)}
            error={failure}
            onClose={close}
            onConfirm={() =>
              void run(
                () => usersApi(`/users/${action.user.id}/sessions`, { method: 'DELETE' }),
                `${fullName(action.user)} is op alle apparaten afgemeld.`,
                'Afmelden op alle apparaten is niet gelukt.',
              )
            }
          >
            <p className="utrecht-paragraph">
              Weet je zeker dat je {fullName(action.user)} op alle apparaten wil afmelden? Wie nu met dit account is
              ingelogd, moet opnieuw inloggen. Het account blijft verder zoals het is.
            </p>
          </ConfirmDialog>
        )}
        {action?.kind === 'reset' && (
          <ConfirmDialog
            title="2FA Resetten"
            confirmLabel="Resetten"
            danger
            busy={busy}
            person={personOf(action.user)}
            error={failure}
            onClose={close}
            onConfirm={() =>
              void run(
                () => usersApi(`/users/${action.user.id}/totp`, { method: 'DELETE' }),
                '2FA reset succesvol',
                'Fout opgetreden bij het resetten van 2FA.',
                'Kan gebruiker niet vinden.',
              )
            }
          >
            <p className="utrecht-paragraph">
              Weet je zeker dat je de tweestapsverificatie van {fullName(action.user)} wil resetten? De gebruiker moet
              daarna bij de volgende keer inloggen de authenticator-app opnieuw instellen.
            </p>
          </ConfirmDialog>
        )}
      </main>
    </Shell>
  );
}
