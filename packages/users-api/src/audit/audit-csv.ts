import type { IdentityPort } from '../ports.js';
import { csvLine as line } from '../users/users-csv.js';
import type { AuditFilter, AuditLog, AuditRecord } from './audit-log.js';
import { described, namesIn } from './audit-page.js';

const FIELDS = ['Datum en tijd', 'Actie', 'Gebeurtenis', 'Uitkomst', 'Door', 'Over', 'IP-adres'];

/** Entries read and written per piece of the streamed file. */
const ENTRIES_PER_PIECE = 500;

const when = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Amsterdam',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/**
 * An organisation's audit log as 'Logboek' narrowed it, newest first, as a CSV file that Dutch spreadsheet programs
 * open as it is (as the users' download: semicolons, UTF-8 with a byte order mark, CRLF, times in the Netherlands as
 * 2026-11-27 14:05:09), read and written in pieces.
 */
export async function* auditCsv(
  audit: AuditLog,
  identities: Pick<IdentityPort, 'get'>,
  organisationId: string,
  filter: AuditFilter,
): AsyncGenerator<string> {
  yield `\uFEFF${line(FIELDS)}`;
  let before: { at: string; id: string } | undefined;
  for (;;) {
    const entries: AuditRecord[] = await audit.list(organisationId, { size: ENTRIES_PER_PIECE, before }, filter);
    const names = await namesIn(identities, entries);
    yield entries
      .map((entry) => {
        const shown = described(entry, names);
        return line([
          when.format(new Date(entry.at)),
          shown.label,
          shown.sentence,
          shown.outcome,
          entry.actorEmail,
          entry.objectEmail,
          entry.clientAddress,
        ]);
      })
      .join('');
    if (entries.length < ENTRIES_PER_PIECE) return;
    const last = entries[entries.length - 1]!;
    before = { at: last.at, id: last.id };
  }
}

/** logboek-voorbeeldstad-2026-11-27.csv */
export const auditCsvName = (organisation: string, on: Date) =>
  `logboek-${organisation}-${when.format(on).slice(0, 10)}.csv`;
