import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../api/queries';
import {
  type PortalUser,
  secondFactorGate,
  secondFactorGateBackTo,
  type UsersStatus,
  usersCsvFile,
} from '../api/users-api';
import { CsvDownloadButton } from '../components/CsvDownloadButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { useToast } from '../components/Toasts';
import { Shell } from '../layout/Shell';
import { usePageTitle } from '../layout/use-page-title';
import { ConfirmAction } from './ConfirmAction';
import { PAGE_SIZE, Pagination } from './Pagination';
import type { RowActionKind } from './RowActions';
import { SORT_OPTIONS, STATUS_OPTIONS, type SortKey } from './sorting';
import { SelectField } from './SelectField';
import { useDebounced } from './use-debounced';
import { usersPageQuery } from './users-page-query';
import { UserFormDialog } from './UserFormDialog';
import { UsersTable } from './UsersTable';
import { usersCsvName } from './users-csv';
import { Loading } from '../components/Loading';
import './overview.css';

type Action = { kind: 'new' } | { kind: RowActionKind; user: PortalUser } | undefined;

/**
 * How long the typing in 'Zoek gebruiker' pauses before screen readers hear how many users it leaves. The server is
 * asked at each key (a page overtaken by the next key is cancelled), so the rows follow the typing.
 */
const ANNOUNCE_PAUSE_MS = 500;

/**
 * The administrators' user overview at `/`: sort, status, search, the six columns and the row actions, a page of
 * users at a time. The Users API sorts, filters, searches and pages (`GET /users?page=&per_page=&sort=&q=&status=`),
 * so that 10,000 people load as quickly as 25 (bench/README.md#overview); the page shown stays while the next one
 * loads.
 */
export default function OverviewScreen() {
  usePageTitle('Overzicht');
  const me = useCurrentUser();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [sort, setSort] = useState<SortKey>('type');
  const [status, setStatus] = useState<UsersStatus | ''>('');
  const [search, setSearch] = useState('');
  const query = search.trim();
  const announced = useDebounced(query, ANNOUNCE_PAUSE_MS);
  const [page, setPage] = useState(0);
  const [action, setAction] = useState<Action>();
  // Focus returns to what opened a dialog, or to 'Nieuwe gebruiker toevoegen' when that row action is gone.
  const opener = useRef<HTMLElement | null>(null);
  const newUserButton = useRef<HTMLButtonElement>(null);
  const open = useCallback((next: Action) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setAction(next);
  }, []);
  const onRowAction = useCallback((kind: RowActionKind, user: PortalUser) => open({ kind, user }), [open]);
  const returnFocus = useRef(false);
  const close = () => {
    returnFocus.current = true;
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
  const users = useQuery({
    ...usersPageQuery(page, sort, query, status || undefined),
    enabled: Boolean(me.data?.isAdmin) && me.data !== undefined && !secondFactorGate(me.data),
    placeholderData: keepPreviousData,
  });
  const total = users.data?.total ?? 0;
  const pages = Math.ceil(total / PAGE_SIZE);
  // A reload after a deletion may leave fewer pages than the one shown: then the last one is shown.
  const settled = users.data !== undefined && !users.isPlaceholderData;
  useEffect(() => {
    if (settled && page > 0 && page >= pages) setPage(Math.max(0, pages - 1));
  }, [settled, page, pages]);

  if (me.isPending) return null;
  if (me.isError || !me.data) return <Navigate to="/login" replace />;
  const gate = secondFactorGateBackTo(me.data, '/');
  if (gate) return <Navigate to={gate} replace />;
  if (!me.data.isAdmin) return <Navigate to="/permissies" replace />;

  // The toast follows the reloaded page, so that what it says is what the table shows.
  const done = async (message: string) => {
    close();
    await queryClient.invalidateQueries({ queryKey: ['users'] });
    toast({ title: message, variant: 'success' });
  };
  const organisation = me.data.activeOrg?.id ?? 'organisatie';

  return (
    <Shell>
      <main className="dvp-main" id="inhoud">
        <h1 className="utrecht-heading-1">Overzicht</h1>
        <p className="utrecht-paragraph">
          <Link className="utrecht-link" to="/logboek">
            Logboek bekijken
          </Link>
          <span aria-hidden="true"> · </span>
          <Link className="utrecht-link" to="/toegangsreview">
            Toegangsreview
          </Link>
          <span aria-hidden="true"> · </span>
          <Link className="utrecht-link" to="/importeren">
            Personen importeren
          </Link>
        </p>
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
          <SelectField
            id="sorteer"
            label="Sorteer op"
            value={sort}
            options={SORT_OPTIONS}
            onChange={(next) => {
              setSort(next);
              setPage(0);
            }}
          />
          <SelectField
            id="status"
            label="Status"
            value={status}
            options={STATUS_OPTIONS}
            onChange={(next) => {
              setStatus(next);
              setPage(0);
            }}
          />
          <div className="utrecht-form-field">
            <label className="utrecht-form-label" htmlFor="zoek">
              Zoek gebruiker
            </label>
            <input
              id="zoek"
              type="search"
              className="utrecht-textbox utrecht-textbox--html-input"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setPage(0);
              }}
            />
          </div>
        </div>
        {users.isPending && <Loading text="Gebruikers laden…" />}
        {/* Screen readers hear how many users a search leaves once the typing pauses; sighted people see the rows. */}
        <p role="status" className="dvp-visually-hidden">
          {settled && announced === query && (query || status)
            ? `${total} ${total === 1 ? 'gebruiker' : 'gebruikers'} gevonden`
            : ''}
        </p>
        {users.isError && (
          <ErrorAlert support>
            <p className="utrecht-paragraph">Er is iets misgegaan.</p>
            <p className="utrecht-paragraph">Kan geen gebruikers ophalen, probeer het later nog eens.</p>
          </ErrorAlert>
        )}
        {users.data && (
          <>
            <UsersTable
              users={users.data.items}
              sort={sort}
              caption={
                `Gebruikers van ${me.data.activeOrg?.label ?? ''}` +
                (pages > 1 ? `, pagina ${page + 1} van ${pages}` : '')
              }
              empty={
                query
                  ? `Geen gebruikers gevonden bij '${query}'. Zoek op een deel van de naam of het e-mailadres.`
                  : status
                    ? 'Geen gebruikers met deze status.'
                    : 'Er zijn nog geen gebruikers.'
              }
              me={me.data.identity.id}
              busy={!settled}
              onAction={onRowAction}
            />
            <Pagination page={page} total={total} onPage={setPage} />
          </>
        )}
        {users.data && total > 0 && (
          // Everyone the search and the status leave, from the server, in the order shown.
          <CsvDownloadButton
            label={
              query || status
                ? `Deze ${total === 1 ? 'gebruiker' : `${total} gebruikers`} downloaden (CSV)`
                : 'Alle gebruikers downloaden (CSV)'
            }
            name={() => usersCsvName(organisation, new Date())}
            file={() => usersCsvFile({ sort, q: query, status: status || undefined })}
          />
        )}
        {(action?.kind === 'new' || action?.kind === 'edit') && (
          <UserFormDialog
            me={me.data}
            user={action.kind === 'edit' ? action.user : undefined}
            onClose={close}
            onDone={(message) => void done(message)}
          />
        )}
        {action && action.kind !== 'new' && action.kind !== 'edit' && (
          <ConfirmAction
            key={`${action.kind}-${action.user.id}`}
            kind={action.kind}
            user={action.user}
            organisation={me.data.activeOrg?.label}
            onClose={close}
            onDone={done}
          />
        )}
      </main>
    </Shell>
  );
}
