import { describe, expect, it } from 'vitest';
import { csvCell, usersCsv, usersCsvName } from './users-csv.js';
import type { ListedUser } from './user-page.js';

type Overrides = Partial<ListedUser> & { first: string; last: string; email: string };
const user = ({ first, last, email, ...overrides }: Overrides): ListedUser => ({
  id: email,
  schema_id: 'default',
  state: 'active',
  traits: { email, name: { first, last } },
  created_at: '2026-03-04T10:00:00Z',
  credentials: ['password'],
  factors: [],
  verified: true,
  permissions: [],
  userType: { id: 'analyst', label: 'Medewerker' },
  home: true,
  lastSignInAt: null,
  ...overrides,
});

/** The rows of a file as a spreadsheet reads them: semicolons, quotes doubled within quoted cells. */
function cells(csv: string): string[][] {
  return csv
    .slice(1)
    .split('\r\n')
    .filter(Boolean)
    .map((line) =>
      [...line.matchAll(/(?:^|;)("(?:[^"]|"")*"|[^;]*)/g)].map(([, cell]) =>
        cell!.startsWith('"') ? cell!.slice(1, -1).replaceAll('""', '"') : cell!,
      ),
    );
}

describe('usersCsv', () => {
  const csv = [
    ...usersCsv([
      user({
        first: 'Anna',
        last: 'de Vries; Jansen',
        email: 'anna@voorbeeldstad.nl',
        credentials: ['password', 'totp'],
        factors: ['app', 'security_key'],
        userType: { id: 'administrator', label: 'Beheerder' },
        lastSignInAt: '2026-11-20T08:05:00.000Z',
        permissions: [
          { namespace: 'organizations', object: 'voorbeeldstad', relation: 'admin', label: 'Gemeente Voorbeeldstad' },
          { namespace: 'subdivisions', object: 'ruimte_voorbeeldstad', relation: 'issuer', label: 'Ruimte' },
          { namespace: 'subdivisions', object: 'sociaal_voorbeeldstad', relation: 'issuer', label: 'Sociaal domein' },
        ],
      }),
      user({
        first: '=HYPERLINK("https://kwaad.example")',
        last: '@Bakker',
        email: 'bert@voorbeeldstad.nl',
        state: 'inactive',
        verified: false,
        created_at: '2025-12-31T12:00:00Z',
      }),
    ]),
  ].join('');

  it('starts with a byte order mark and a header of Dutch column names, separated by semicolons', () => {
    expect(
      csv.startsWith(
        '\uFEFFVoornaam;Achternaam;E-mailadres;Type gebruiker;Datarollen;' +
          'Aangemaakt;Status;Authenticator-app;Tweede factor;E-mailadres bevestigd;Laatst ingelogd\r\n',
      ),
    ).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('writes one row per user, quoting what holds a semicolon', () => {
    const rows = cells(csv);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual([
      'Anna',
      'de Vries; Jansen',
      'anna@voorbeeldstad.nl',
      'Beheerder',
      'Ruimte, Sociaal domein',
      '2026-03-04',
      'actief',
      'ja',
      'authenticator-app, beveiligingssleutel',
      'ja',
      '2026-11-20 09:05',
    ]);
    expect(csv).toContain(';"de Vries; Jansen";');
  });

  it('makes a cell that would start a formula plain text', () => {
    const rows = cells(csv);
    expect(rows[2]!.slice(0, 2)).toEqual([`'=HYPERLINK("https://kwaad.example")`, `'@Bakker`]);
    expect(rows[2]!.slice(5)).toEqual(['2025-12-31', 'geblokkeerd', 'nee', 'geen', 'nee', 'nog nooit']);
    expect(['+1', '-1', '\tx', ' x', 'a"b', 'plain'].map(csvCell)).toEqual([
      `"'+1"`,
      `"'-1"`,
      `"'\tx"`,
      '" x"',
      '"a""b"',
      'plain',
    ]);
  });

  it('says invited or locked until, and leaves the second factors empty for guests and invited people', () => {
    const rows = cells(
      [
        ...usersCsv([
          user({ first: 'Gast', last: 'Elders', email: 'gast@dego.nl', home: false }),
          user({
            first: 'Ina',
            last: 'Uitgenodigd',
            email: 'ina@dego.nl',
            home: false,
            credentials: [],
            lastSignInAt: undefined,
            invitation: { id: 'i1', expiresAt: '2026-11-26T15:00:00Z' },
          }),
          user({ first: 'Thuis', last: 'Lid', email: 'thuis@voorbeeldstad.nl', factors: ['passkey'] }),
          user({ first: 'Slot', last: 'Op', email: 'slot@voorbeeldstad.nl', lockedUntil: '2026-11-27T09:15:00.000Z' }),
        ]),
      ].join(''),
    );
    expect(rows.slice(1).map((row) => row.slice(6))).toEqual([
      ['actief', '', '', 'ja', 'nog nooit'],
      ['uitgenodigd', '', '', 'ja', ''],
      ['actief', 'nee', 'passkey', 'ja', 'nog nooit'],
      ['vergrendeld tot 2026-11-27 10:15', 'nee', 'geen', 'ja', 'nog nooit'],
    ]);
  });

  it('streams a large list in pieces', () => {
    const many = Array.from({ length: 1200 }, (_, i) => user({ first: `P${i}`, last: 'X', email: `p${i}@x.nl` }));
    const pieces = [...usersCsv(many)];
    expect(pieces.length).toBe(4);
    expect(cells(pieces.join(''))).toHaveLength(1201);
  });
});

describe('usersCsvName', () => {
  it('names the organisation and the day in the Netherlands', () => {
    expect(usersCsvName('voorbeeldstad', new Date('2026-11-02T23:30:00Z'))).toBe(
      'gebruikers-voorbeeldstad-2026-11-03.csv',
    );
  });
});
