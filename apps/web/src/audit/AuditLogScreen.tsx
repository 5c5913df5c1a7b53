import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../api/queries';
import { type AuditFilter, auditCsvFile, auditPage, secondFactorGateBackTo, UsersApiError } from '../api/users-api';
import { CsvDownloadButton } from '../components/CsvDownloadButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { Shell } from '../layout/Shell';
import { usePageTitle } from '../layout/use-page-title';
import { AuditTable } from './AuditTable';
import { csvName } from '../components/csv-name';

const NO_FILTER: AuditFilter = { person: '', action: '', from: '', until: '' };

/** The filter's fields as the address names them: `/logboek?persoon=piet@voorbeeldstad.nl&vanaf=2026-11-01`. */
const IN_ADDRESS: Record<keyof AuditFilter, string> = {
  person: 'persoon',
  action: 'actie',
  from: 'vanaf',
  until: 'tot',
};

const filterIn = (address: URLSearchParams): AuditFilter => ({
  person: address.get(IN_ADDRESS.person) ?? '',
  action: address.get(IN_ADDRESS.action) ?? '',
  from: address.get(IN_ADDRESS.from) ?? '',
  until: address.get(IN_ADDRESS.until) ?? '',
});

const addressOf = (filter: AuditFilter) =>
  new URLSearchParams(
    (Object.keys(IN_ADDRESS) as (keyof AuditFilter)[])
      .filter((field) => filter[field].trim() !== '')
      .map((field) => [IN_ADDRESS[field], filter[field].trim()]),
  );

/** The Dutch refusal of a filter the server cannot apply (400), or undefined for any other failure. */
const refusalOf = (error: unknown) =>
  error instanceof UsersApiError && error.status === 400 ? error.body?.error?.message : undefined;

/** A labelled NL Design System text box of the filter form. */
function InputField({ label, ...input }: { label: string; type: string; id: string } & InputProps) {
  return (
    <div className="utrecht-form-field">
      <label className="utrecht-form-label" htmlFor={input.id}>
        {label}
      </label>
      <input className="utrecht-textbox utrecht-textbox--html-input" {...input} />
    </div>
  );
}

type InputProps = { value: string; onChange(event: { target: { value: string } }): void };

/**
 * 'Logboek' at `/logboek`: what happened in the administrator's organisation, newest first, narrowed by person, action
 * and period (`GET /api/audit`), a page at a time with 'Meer tonen', and downloadable as CSV (`GET /api/audit.csv`,
 * which the log then records too).
 */
export default function AuditLogScreen() {
  usePageTitle('Logboek');
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  // The filter applied lives in the address, so that Back, a bookmark and the overview's 'Logboek' of a person work.
  const [address, setAddress] = useSearchParams();
  const filter = filterIn(address);
  const [draft, setDraft] = useState<AuditFilter>(filter);
  const applied = address.toString();
  // The address this screen asked for itself. The router shows it in a transition, after what the person chose
  // meanwhile: arriving, it must leave the fields alone.
  const asked = useRef<string | undefined>(undefined);
  // The fields follow the address when something else changes it (Back, a link to another person's part).
  useEffect(() => {
    const own = asked.current === applied;
    asked.current = undefined;
    if (!own) setDraft(filterIn(new URLSearchParams(applied)));
  }, [applied]);
  const main = useRef<HTMLElement>(null);
  const log = useInfiniteQuery({
    queryKey: ['audit', filter],
    queryFn: ({ pageParam, signal }) => auditPage(filter, pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    enabled: Boolean(me.data?.isAdmin),
    placeholderData: keepPreviousData,
    retry: false,
  });

  if (me.isPending) return null;
  if (me.isError || !me.data) return <Navigate to="/login" replace />;
  // Back from the second step to the same part of the log: the filter is in the address.
  const gate = secondFactorGateBackTo(me.data, applied ? `/logboek?${applied}` : '/logboek');
  if (gate) return <Navigate to={gate} replace />;
  if (!me.data.isAdmin) return <Navigate to="/permissies" replace />;

  const organisation = me.data.activeOrg;
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  const actions = log.data?.pages[0]?.actions ?? [];
  const narrowed = Object.values(filter).some((value) => value.trim() !== '');
  const refusal = refusalOf(log.error);
  const settled = log.data !== undefined && !log.isPlaceholderData && !log.isFetchingNextPage;
  const field = (name: keyof AuditFilter) => ({
    id: `logboek-${name}`,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setDraft((current) => ({ ...current, [name]: value }));
    },
  });
  const show = (next: AuditFilter) => {
    const search = addressOf(next);
    if (search.toString() !== applied) asked.current = search.toString();
    setAddress(search);
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    show(draft);
  };
  const clear = () => {
    setDraft(NO_FILTER);
    show(NO_FILTER);
  };
  // The focus goes to the first entry that came in, so that reading goes on where it stopped (and the button may go).
  const showMore = async () => {
    const shown = entries.length;
    await log.fetchNextPage();
    // After React has shown the new rows.
    await new Promise((resolve) => window.requestAnimationFrame(resolve));
    const next = main.current?.querySelectorAll<HTMLElement>('tbody tr')[shown];
    if (!next) return;
    next.tabIndex = -1;
    next.focus();
  };

  return (
    <Shell>
      <main className="dvp-main" id="inhoud" ref={main}>
        <h1 className="utrecht-heading-1">Logboek</h1>
        <p className="utrecht-paragraph">
          Wat er in {organisation?.label ?? 'je organisatie'} is gebeurd, het nieuwste eerst.
        </p>
        <form className="dvp-toolbar" aria-label="Logboek filteren" onSubmit={apply}>
          <InputField label="Persoon (e-mailadres)" type="search" {...field('person')} />
          <div className="utrecht-form-field">
            <label className="utrecht-form-label" htmlFor="logboek-action">
              Actie
            </label>
            <select className="utrecht-select utrecht-select--html-select" {...field('action')}>
              <option value="">Alle acties</option>
              {actions.map((option) => (
                <option key={option.action} value={option.action}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <InputField label="Vanaf" type="date" {...field('from')} />
          <InputField label="Tot en met" type="date" {...field('until')} />
          <div className="dvp-toolbar__buttons">
            <button type="submit" className="utrecht-button utrecht-button--primary-action">
              Filteren
            </button>
            {narrowed && (
              <button type="button" className="utrecht-button utrecht-button--secondary-action" onClick={clear}>
                Filters wissen
              </button>
            )}
          </div>
        </form>
        {refusal && <ErrorAlert text={refusal} focus />}
        {log.isError && !refusal && (
          <ErrorAlert support>
            <p className="utrecht-paragraph">Er is iets misgegaan.</p>
            <p className="utrecht-paragraph">Kan het logboek niet ophalen, probeer het later nog eens.</p>
          </ErrorAlert>
        )}
        {log.isPending && !log.isError && <Loading text="Logboek laden…" />}
        <p role="status" className="dvp-visually-hidden">
          {settled ? `${entries.length} ${entries.length === 1 ? 'regel' : 'regels'} getoond` : ''}
        </p>
        {log.data && (
          <AuditTable
            entries={entries}
            caption={`Logboek van ${organisation?.label ?? 'je organisatie'}`}
            empty={narrowed ? 'Geen regels gevonden bij deze filters.' : 'Er staat nog niets in het logboek.'}
            busy={!settled}
          />
        )}
        {log.hasNextPage && (
          <p className="dvp-export">
            <button
              type="button"
              className="utrecht-button utrecht-button--secondary-action"
              aria-disabled={log.isFetchingNextPage || undefined}
              onClick={() => !log.isFetchingNextPage && void showMore()}
            >
              {log.isFetchingNextPage ? 'Meer laden…' : 'Meer tonen'}
            </button>
          </p>
        )}
        {entries.length > 0 && (
          <CsvDownloadButton
            label={narrowed ? 'Deze regels downloaden (CSV)' : 'Het hele logboek downloaden (CSV)'}
            name={() => csvName('logboek', organisation?.id ?? 'organisatie', new Date())}
            file={() => auditCsvFile(filter)}
            // The download is in the log now too.
            onDone={() => queryClient.invalidateQueries({ queryKey: ['audit'] })}
          />
        )}
      </main>
    </Shell>
  );
}
