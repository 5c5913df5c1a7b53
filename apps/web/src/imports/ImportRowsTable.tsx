import type { ImportRow } from './import-api';
import { CardTable } from '../components/CardTable';
import { rowWords } from './import-words';

/** The rows of an import's file with what each will do or did, and why a row is refused. */
export function ImportRowsTable({ rows, caption }: { rows: ImportRow[]; caption: string }) {
  return (
    <CardTable label={caption} caption={caption} rows={rows}>
      <thead>
        <tr>
          <th scope="col">Regel</th>
          <th scope="col">Persoon</th>
          <th scope="col">Datarollen</th>
          <th scope="col">Wat er gebeurt</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.line}>
            <td data-label="Regel">{row.line}</td>
            <td data-label="Persoon">
              <span className="dvp-import-name">{`${row.first} ${row.last}`.trim() || '–'}</span>
              <span className="dvp-import-email">{row.email || '–'}</span>
            </td>
            <td data-label="Datarollen">
              {[...row.dataRoles, ...(row.admin ? ['Beheerder'] : [])].join(', ') || 'Geen'}
            </td>
            <td data-label="Wat er gebeurt">
              <strong>{rowWords(row)}</strong>
              {row.reason && <span className="dvp-import-reason">{row.reason}</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}
