import type { ListedUser } from './user-page.js';

const FIELDS = [
  'Voornaam',
  'Achternaam',
  'E-mailadres',
  'Type gebruiker',
  'Datarollen',
  'Aangemaakt',
  'Status',
  'Authenticator-app',
  'Tweede factor',
  'E-mailadres bevestigd',
  'Laatst ingelogd',
];
const FACTOR_NAMES = { app: 'authenticator-app', backup_codes: 'back-upcodes', security_key: 'beveiligingssleutel' };

/** The Dutch names of kinds of second factor, as the overview's download and the review's evidence spell them. */
export const factorNames = (kinds: readonly string[]) =>
  kinds.map((kind) => FACTOR_NAMES[kind as keyof typeof FACTOR_NAMES] ?? kind);
const FORMULA = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[;"\r\n\uFEFF]|^ | $/;

/**
 * A cell as Papa Parse's `unparse` writes it with `escapeFormulae` (what the overview's download used before): a cell
 * a spreadsheet would read as a formula (=, +, -, @, tab, carriage return) gets a leading apostrophe and quotes; one
 * holding the delimiter, a quote, a line break or a byte order mark, or starting or ending with a space, is quoted.
 */
export function csvCell(value: string): string {
  const formula = FORMULA.test(value);
  const text = formula ? `'${value}` : value;
  return formula || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const yesNo = (value: boolean) => (value ? 'ja' : 'nee');
// The day an account was made, as the portal's people count days: in the Netherlands.
const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' });
const timeOf = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Amsterdam', hour: '2-digit', minute: '2-digit' });

/** A moment as '2026-11-20 09:00' in the Netherlands. */
export const moment = (iso: string) => `${dayOf.format(new Date(iso))} ${timeOf.format(new Date(iso))}`;

/** '2026-11-20 09:00' in the Netherlands, 'nog nooit', or empty for an invited person (not the inviter's to see). */
function lastSignIn(user: ListedUser): string {
  if (user.lastSignInAt === undefined) return '';
  if (user.lastSignInAt === null) return 'nog nooit';
  return moment(user.lastSignInAt);
}

/**
 * 'uitgenodigd', 'geblokkeerd', 'vergrendeld tot 2026-11-27 10:15' (a sign-in lock in force, which only the home
 * organisation sees) or 'actief'.
 */
function statusOf(user: ListedUser): string {
  if (user.invitation) return 'uitgenodigd';
  if (user.state === 'inactive') return 'geblokkeerd';
  if (user.lockedUntil) return `vergrendeld tot ${moment(user.lockedUntil)}`;
  return 'actief';
}

/** 'authenticator-app, beveiligingssleutel', 'geen', or empty where this organisation does not see them. */
function secondFactors(user: ListedUser): string {
  if (user.invitation || user.home === false) return '';
  return factorNames(user.factors).join(', ') || 'geen';
}

/** One line of the portal's CSV files: semicolons between the cells, CRLF at the end. */
export const csvLine = (cells: readonly (string | null)[]) =>
  `${cells.map((cell) => csvCell(cell ?? '')).join(';')}\r\n`;

function row(user: ListedUser): string {
  return csvLine([
    user.traits.name.first,
    user.traits.name.last,
    user.traits.email,
    user.userType.id === 'administrator' ? 'Beheerder' : 'Medewerker',
    user.permissions
      .filter((p) => p.namespace === 'subdivisions')
      .map((p) => p.label)
      .join(', '),
    dayOf.format(new Date(user.created_at)),
    statusOf(user),
    // Another organisation's account (a guest, or someone invited) shows no credentials here: empty, not 'nee'.
    user.home === false || user.invitation ? '' : yesNo(user.credentials.includes('totp')),
    secondFactors(user),
    yesNo(user.verified),
    lastSignIn(user),
  ]);
}

/** Rows per piece of the streamed file: small enough to start at once, large enough to be few writes. */
const ROWS_PER_PIECE = 500;

/**
 * The people as a CSV file that Dutch spreadsheet programs open as they are, in pieces to stream: semicolons, UTF-8
 * with a byte order mark, CRLF line ends, dates as yyyy-mm-dd (and times as hh:mm, in the Netherlands).
 */
export function* usersCsv(users: readonly ListedUser[]): Generator<string> {
  yield `\uFEFF${csvLine(FIELDS)}`;
  for (let start = 0; start < users.length; start += ROWS_PER_PIECE)
    yield users
      .slice(start, start + ROWS_PER_PIECE)
      .map(row)
      .join('');
}

/** gebruikers-voorbeeldstad-2026-11-23.csv */
export const usersCsvName = (organisation: string, on: Date) => `gebruikers-${organisation}-${dayOf.format(on)}.csv`;
