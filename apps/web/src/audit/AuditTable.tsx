import type { AuditEntry } from '../api/users-api';
import { CardTable } from '../components/CardTable';
import { longDateTime } from '../i18n/dates';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface AuditTableProps {
  entries: AuditEntry[];
  caption: string;
  /** What the one row says when there are no entries. */
  empty: string;
  /** A new filter is being read: the entries shown are the previous ones. */
  busy: boolean;
}

/**
 * The log's entries, one row each: when, what happened (a Dutch sentence, with the action's label) and the outcome;
 * where the columns do not fit (a phone), each row is a card, as in the overview.
 */
export function AuditTable({ entries, caption, empty, busy }: AuditTableProps) {
  return (
    <CardTable label="Logboek" caption={caption} busy={busy} rows={entries}>
      <thead>
        <tr>
          <th scope="col">Datum en tijd</th>
          <th scope="col">Gebeurtenis</th>
          <th scope="col">Actie</th>
          <th scope="col">Uitkomst</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td data-label="Datum en tijd">
              <time dateTime={entry.at}>{longDateTime(entry.at)}</time>
            </td>
            <td data-label="Gebeurtenis">{entry.sentence}</td>
            <td data-label="Actie">{entry.label}</td>
            <td data-label="Uitkomst">{capitalised(entry.outcome)}</td>
          </tr>
        ))}
        {entries.length === 0 && (
          <tr>
            <td colSpan={4}>{empty}</td>
          </tr>
        )}
      </tbody>
    </CardTable>
  );
}
