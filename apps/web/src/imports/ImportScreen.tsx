import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../api/queries';
import { reasonOf, secondFactorGateBackTo } from '../api/users-api';
import { importJob, importReportFile, importRows, previewImport, startImport } from './import-api';
import { CsvDownloadButton } from '../components/CsvDownloadButton';
import { csvName } from '../components/csv-name';
import { downloadFile } from '../components/download';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { Shell } from '../layout/Shell';
import { usePageTitle } from '../layout/use-page-title';
import { ImportRowsTable } from './ImportRowsTable';
import { changesAnything, exampleFile, outcomeSummary, planSummary } from './import-words';
import './import.css';

/** How often the progress of a running import is asked for. */
const PROGRESS_MS = 1_000;

/** The server's Dutch reason for a refused file, or a general one. */
const problemOf = (error: unknown) =>
  reasonOf(error) ?? 'Het bestand kon niet worden gecontroleerd. Probeer het later nog eens.';

/**
 * 'Personen importeren' at `/importeren`: a CSV file of people is checked with the new-user form's rules and shown
 * row by row (`POST /api/imports`, nothing written yet); 'Importeren' starts it, the server carries it out in the
 * background while a progress bar follows it, and the report says per row what was done and can be downloaded. The
 * import's id is kept in the address (`?import=`), so a reload or a look elsewhere comes back to it.
 */
export default function ImportScreen() {
  usePageTitle('Personen importeren');
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const [address, setAddress] = useSearchParams();
  const id = address.get('import') ?? '';
  const file = useRef<HTMLInputElement>(null);
  const [missingFile, setMissingFile] = useState(false);
  const announced = useRef<HTMLDivElement>(null);
  const isAdmin = Boolean(me.data?.isAdmin);
  const job = useQuery({
    queryKey: ['import', id],
    queryFn: ({ signal }) => importJob(id, signal),
    enabled: isAdmin && id !== '',
    refetchInterval: (query) => (query.state.data?.state === 'running' ? PROGRESS_MS : false),
  });
  const state = job.data?.state;
  // While it runs, the rows as planned stay in view; once done, what was done.
  const rowsState = state === 'running' ? 'preview' : state;
  const rows = useQuery({
    queryKey: ['import-rows', id, rowsState],
    queryFn: ({ signal }) => importRows(id, signal),
    enabled: isAdmin && id !== '' && rowsState !== undefined,
  });
  const check = useMutation({
    mutationFn: async (chosen: File) => previewImport(chosen.name, await chosen.text()),
    onSuccess: (preview) => {
      queryClient.setQueryData(['import', preview.id], preview);
      queryClient.setQueryData(['import-rows', preview.id, 'preview'], preview.rows);
      setAddress({ import: preview.id });
    },
  });
  const start = useMutation({
    mutationFn: () => startImport(id),
    onSuccess: (started) => queryClient.setQueryData(['import', id], started),
  });
  // The outcome is said once the import is done, and the focus goes to it.
  useEffect(() => {
    if (state === 'done') announced.current?.focus();
  }, [state]);

  if (me.isPending) return null;
  if (me.isError || !me.data) return <Navigate to="/login" replace />;
  const gate = secondFactorGateBackTo(me.data, id ? `/importeren?import=${id}` : '/importeren');
  if (gate) return <Navigate to={gate} replace />;
  if (!me.data.isAdmin) return <Navigate to="/permissies" replace />;

  const organisation = me.data.activeOrg?.label ?? 'je organisatie';
  const progress = job.data?.progress;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = file.current?.files?.[0];
    setMissingFile(!chosen);
    if (chosen) check.mutate(chosen);
  };
  const again = () => {
    check.reset();
    start.reset();
    setAddress({});
  };

  return (
    <Shell>
      <main className="dvp-main" id="inhoud">
        <h1 className="utrecht-heading-1">Personen importeren</h1>
        {!id && (
          <>
            <p className="utrecht-paragraph">
              Voeg meer personen tegelijk toe aan {organisation} met een CSV-bestand, bijvoorbeeld uit Excel met
              'Opslaan als' en 'CSV (gescheiden door lijstscheidingsteken)'. De eerste regel noemt de kolommen Voornaam,
              Achternaam, E-mailadres, Datarollen en Beheerder. Zet meer datarollen in één cel, gescheiden door een
              komma; bij Beheerder vul je ja of nee in. Een download van het overzicht kan ook.
            </p>
            <p className="utrecht-paragraph">
              <button
                type="button"
                className="utrecht-button utrecht-button--secondary-action"
                onClick={() =>
                  downloadFile(
                    'personen-importeren-voorbeeld.csv',
                    exampleFile(me.data?.activeOrg?.subdivisions ?? []),
                    'text/csv;charset=utf-8',
                  )
                }
              >
                Voorbeeldbestand downloaden (CSV)
              </button>
            </p>
            <p className="utrecht-paragraph">
              Je ziet eerst per regel wat er gebeurt; er verandert pas iets als je op Importeren drukt. Wie al een
              account heeft, krijgt alleen de datarollen erbij die nog ontbreken.
            </p>
            <form className="dvp-form" onSubmit={submit} noValidate>
              <div className={`utrecht-form-field${missingFile ? ' utrecht-form-field--invalid' : ''}`}>
                <label className="utrecht-form-label" htmlFor="import-file">
                  CSV-bestand
                </label>
                <input
                  ref={file}
                  id="import-file"
                  type="file"
                  accept=".csv,text/csv"
                  className="dvp-import-file"
                  aria-invalid={missingFile || undefined}
                  aria-describedby={missingFile ? 'import-file-error' : undefined}
                />
                {missingFile && (
                  <p
                    id="import-file-error"
                    className="utrecht-form-field-description dvp-field-message dvp-field-message--error"
                  >
                    Kies een CSV-bestand.
                  </p>
                )}
              </div>
              {check.isError && <ErrorAlert text={problemOf(check.error)} focus />}
              <button
                type="submit"
                className="utrecht-button utrecht-button--primary-action"
                aria-disabled={check.isPending || undefined}
              >
                {check.isPending ? 'Bestand controleren…' : 'Controleren'}
              </button>
            </form>
          </>
        )}
        {id && job.isPending && <Loading text="Import laden…" />}
        {id && job.isError && <ErrorAlert text="Deze import is niet gevonden." />}
        {job.data && progress && (
          <>
            <p className="utrecht-paragraph">
              Bestand: <strong>{job.data.fileName}</strong>
            </p>
            {state !== 'done' && (
              <p className="utrecht-paragraph">
                {state === 'preview' ? 'Als je importeert' : 'Deze import'}: {planSummary(progress)}.
              </p>
            )}
            {state === 'preview' && (
              <div className="dvp-toolbar__buttons dvp-import-actions">
                {changesAnything(progress) && (
                  <button
                    type="button"
                    className="utrecht-button utrecht-button--primary-action"
                    aria-disabled={start.isPending || undefined}
                    onClick={() => !start.isPending && start.mutate()}
                  >
                    Importeren
                  </button>
                )}
                <button type="button" className="utrecht-button utrecht-button--secondary-action" onClick={again}>
                  Ander bestand kiezen
                </button>
              </div>
            )}
            {start.isError && (
              <ErrorAlert text={reasonOf(start.error) ?? 'Starten is niet gelukt. Probeer het later nog eens.'} focus />
            )}
            {state === 'running' && (
              <div className="dvp-import-progress">
                <label className="utrecht-form-label" htmlFor="import-progress">
                  Voortgang
                </label>
                <progress id="import-progress" max={progress.total} value={progress.done} />
                <p className="utrecht-paragraph">
                  {progress.done} van {progress.total} regels verwerkt. Je kunt deze pagina verlaten: de import gaat
                  door.
                </p>
              </div>
            )}
            {state === 'done' && (
              <>
                <div ref={announced} tabIndex={-1} className="utrecht-alert utrecht-alert--ok" role="status">
                  <p className="utrecht-paragraph">{outcomeSummary(progress)}</p>
                </div>
                <CsvDownloadButton
                  label="Verslag downloaden (CSV)"
                  name={() => csvName('import', me.data?.activeOrg?.id ?? 'organisatie', new Date(job.data.createdAt))}
                  file={() => importReportFile(id)}
                />
                <p className="utrecht-paragraph">
                  <button type="button" className="utrecht-button utrecht-button--secondary-action" onClick={again}>
                    Nog een bestand importeren
                  </button>
                </p>
              </>
            )}
            {rows.data && (
              <ImportRowsTable
                rows={rows.data}
                caption={state === 'done' ? 'Wat er per regel is gebeurd' : 'Wat er per regel gebeurt'}
              />
            )}
          </>
        )}
      </main>
    </Shell>
  );
}
