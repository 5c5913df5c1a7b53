import { CsvError, parse } from 'csv-parse/sync';
import { ApiError } from '../api-error.js';

/** Rows a file may hold: an organisation's people in one go, done within a minute (bench/README.md). */
const MAX_IMPORT_ROWS = 5_000;

/** A row of the file as written: the cells the import reads, trimmed, and the line it starts on. */
export interface FileRow {
  line: number;
  first: string;
  last: string;
  email: string;
  /** The data roles as written: labels or ids. */
  dataRoles: string[];
  /** 'ja', 'nee', empty, or what else was written (refused by the plan). */
  admin: string;
}

/**
 * The columns by the names a person or the overview's own download gives them, in any case. 'Type gebruiker'
 * ('Beheerder' or 'Medewerker', as the download writes it) may stand for 'Beheerder' (ja or nee), so that a
 * downloaded list can be imported again as it is.
 */
const COLUMNS = {
  first: ['voornaam'],
  last: ['achternaam'],
  email: ['e-mailadres', 'emailadres', 'e-mail', 'email'],
  dataRoles: ['datarollen', 'datarol'],
  admin: ['beheerder'],
  userType: ['type gebruiker'],
} as const;

const refused = (reason: string, message: string) => new ApiError(400, 'import_file_refused', reason, message);

/** Semicolons (as Dutch spreadsheet programs save CSV) unless the first line has commas and no semicolon. */
function delimiterOf(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  return first.includes(';') || !first.includes(',') ? ';' : ',';
}

/** Splits the data roles of a cell: by '|' or, in a file of semicolons, by ','. */
const rolesIn = (cell: string, delimiter: string) =>
  cell
    .split(delimiter === ';' ? /[|,]/ : /\|/)
    .map((role) => role.trim())
    .filter(Boolean);

function adminOf(cells: Record<string, string>): string {
  const admin = cells.admin?.trim().toLowerCase();
  if (admin) return admin;
  const type = cells.userType?.trim().toLowerCase();
  if (type === 'beheerder') return 'ja';
  if (type === 'medewerker') return 'nee';
  return type ?? '';
}

/**
 * Reads an import file: UTF-8 (a byte order mark is skipped), a header line naming at least 'E-mailadres', then a
 * person per line. Refuses, in Dutch, a file that cannot be read as CSV, lacks the address column, or holds no one
 * or more than MAX_IMPORT_ROWS people; each row's own content is checked by the plan (import-plan.ts).
 */
export function readImportFile(text: string): FileRow[] {
  const delimiter = delimiterOf(text.replace(/^\uFEFF/, ''));
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      max_record_size: 64 * 1024,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = typeof error.lines === 'number' ? ` (regel ${error.lines})` : '';
    throw refused(`The file is no CSV: ${error.code}`, `Het bestand is geen leesbaar CSV-bestand${line}.`);
  }
  const [header, ...body] = records;
  if (!header) throw refused('The file is empty.', 'Het bestand is leeg.');
  const names = header.record.map((cell) => cell.trim().toLowerCase());
  const at = Object.fromEntries(
    Object.entries(COLUMNS).map(([field, spellings]) => [
      field,
      names.findIndex((n) => spellings.includes(n as never)),
    ]),
  ) as Record<keyof typeof COLUMNS, number>;
  if (at.email < 0)
    throw refused(
      'The header names no e-mail address column.',
      "De eerste regel noemt geen kolom 'E-mailadres'. Gebruik de kolommen Voornaam, Achternaam, E-mailadres, " +
        'Datarollen en Beheerder.',
    );
  const rows = body.filter(({ record }) => record.some((cell) => cell.trim() !== ''));
  if (rows.length === 0) throw refused('The file names nobody.', 'Het bestand bevat geen personen.');
  if (rows.length > MAX_IMPORT_ROWS)
    throw refused(
      `More than ${MAX_IMPORT_ROWS} rows.`,
      `Het bestand bevat ${rows.length} personen; importeer er hoogstens ` +
        `${MAX_IMPORT_ROWS.toLocaleString('nl-NL')} tegelijk.`,
    );
  return rows.map(({ record, info }) => {
    const cell = (field: keyof typeof COLUMNS) => (at[field] >= 0 ? (record[at[field]] ?? '').trim() : '');
    return {
      // csv-parse counts the lines read up to the record's end; a record on one line starts there.
      line: info.lines,
      first: cell('first'),
      last: cell('last'),
      email: cell('email'),
      dataRoles: rolesIn(cell('dataRoles'), delimiter),
      admin: adminOf({ admin: cell('admin'), userType: cell('userType') }),
    };
  });
}
