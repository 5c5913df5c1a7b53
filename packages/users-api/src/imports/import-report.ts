import type { Organisation } from '../catalogue/catalogue.js';
import { csvLine } from '../users/users-csv.js';
import type { ImportOutcome, StoredRow } from './import-store.js';
import type { ImportPlan } from './import-plan.js';

const FIELDS = [
  'Regel',
  'E-mailadres',
  'Voornaam',
  'Achternaam',
  'Datarollen',
  'Beheerder',
  'Resultaat',
  'Toelichting',
];

/** What was done, in the words of the screen. */
const OUTCOME_WORDS: Record<ImportOutcome, string> = {
  created: 'account aangemaakt en uitgenodigd',
  invited: 'uitgenodigd voor de organisatie',
  added: 'datarollen of beheer toegevoegd',
  unchanged: 'ongewijzigd',
  refused: 'geweigerd',
  failed: 'mislukt',
};

/** What will be done, in the words of the preview. */
const PLAN_WORDS: Record<ImportPlan, string> = {
  create: 'nieuw account',
  invite: 'uitnodiging (account bij een andere organisatie)',
  add: 'datarollen of beheer erbij',
  unchanged: 'ongewijzigd',
  refused: 'geweigerd',
};

/** The data roles of a row by their labels, as the overview's download writes them. */
export const roleLabels = (org: Organisation | undefined, row: StoredRow) =>
  row.dataRoles.map((id) => org?.dataRoles.find((role) => role.id === id)?.label ?? id);

/**
 * An import's report: every row of the file with what was done (or, before it is done, what will be), as the
 * portal's other downloads are written (semicolons, UTF-8 with a byte order mark, CRLF).
 */
export function importReportCsv(org: Organisation | undefined, rows: readonly StoredRow[]): string {
  const lines = rows.map((row) =>
    csvLine([
      String(row.line),
      row.email,
      row.first,
      row.last,
      roleLabels(org, row).join(', '),
      row.admin ? 'ja' : 'nee',
      row.outcome ? OUTCOME_WORDS[row.outcome] : `nog niet verwerkt (${PLAN_WORDS[row.plan]})`,
      row.reason ?? '',
    ]),
  );
  return `\uFEFF${csvLine(FIELDS)}${lines.join('')}`;
}
