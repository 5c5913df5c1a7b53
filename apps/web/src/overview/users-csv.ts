import Papa from 'papaparse';
import type { PortalUser } from '../api/users-api';
import { factorNamesOf } from './factors';

const yesNo = (value: boolean) => (value ? 'ja' : 'nee');
/** 'authenticator-app, beveiligingssleutel', 'geen', or empty where this organisation does not see them. */
const secondFactors = (user: PortalUser) => {
  const names = factorNamesOf(user);
  return names ? names.join(', ') || 'geen' : '';
};
const pad = (n: number) => String(n).padStart(2, '0');
/** yyyy-mm-dd of the day in the person's time zone, as the table's long dates show it. */
const day = (at: Date) => `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;

/**
 * The users as a CSV file that Dutch spreadsheet programs open as they are: semicolons, UTF-8 with a byte order mark,
 * dates as yyyy-mm-dd. A cell that a spreadsheet would read as a formula (=, +, -, @) is made plain text.
 */
export function usersCsv(users: PortalUser[]): string {
  const rows = users.map((user) => [
    user.traits.name.first,
    user.traits.name.last,
    user.traits.email,
    user.userType.id === 'administrator' ? 'Beheerder' : 'Medewerker',
    user.permissions
      .filter((p) => p.namespace === 'subdivisions')
      .map((p) => p.label)
      .join(', '),
    day(new Date(user.created_at)),
    user.invitation ? 'uitgenodigd' : user.state === 'inactive' ? 'geblokkeerd' : 'actief',
    // Another organisation's account (a guest, or someone invited) shows no credentials here: left empty, not 'nee'.
    user.home === false || user.invitation ? '' : yesNo(user.credentials.includes('totp')),
    secondFactors(user),
    yesNo(user.verified),
  ]);
  const fields = [
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
  ];
  return `\uFEFF${Papa.unparse({ fields, data: rows }, { delimiter: ';', newline: '\r\n', escapeFormulae: true })}\r\n`;
}

/** gebruikers-voorbeeldstad-2026-11-23.csv */
export const usersCsvName = (organisation: string, on: Date) => `gebruikers-${organisation}-${day(on)}.csv`;
