import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { PortalUser } from '../api/users-api';
import { usersCsv, usersCsvName } from './users-csv';

const user = (overrides: Partial<PortalUser> & { first: string; last: string; email: string }): PortalUser => ({
  id: overrides.email,
  schema_id: 'default',
  state: overrides.state ?? 'active',
  traits: { email: overrides.email, name: { first: overrides.first, last: overrides.last } },
  created_at: overrides.created_at ?? '2026-03-04T10:00:00Z',
  credentials: overrides.credentials ?? ['password'],
  verified: overrides.verified ?? true,
  permissions: overrides.permissions ?? [],
  userType: overrides.userType ?? { id: 'analyst', label: 'Medewerker' },
  ...(overrides.home !== undefined ? { home: overrides.home } : {}),
  ...(overrides.factors ? { factors: overrides.factors } : {}),
  ...(overrides.invitation ? { invitation: overrides.invitation } : {}),
});

describe('usersCsv', () => {
  const csv = usersCsv([
    user({
      first: 'Anna',
      last: 'de Vries; Jansen',
      email: 'anna@voorbeeldstad.nl',
      credentials: ['password', 'totp'],
      factors: ['app', 'security_key'],
      userType: { id: 'administrator', label: 'Beheerder' },
      permissions: [
        { namespace: 'organizations', object: 'voorbeeldstad', relation: 'admin', label: 'Gemeente Voorbeeldstad' },
        { namespace: 'subdivisions', object: 'ruimte_voorbeeldstad', relation: 'issuer', label: 'Ruimte' },
        {
          namespace: 'subdivisions',
          object: 'sociaal-domein_voorbeeldstad',
          relation: 'issuer',
          label: 'Sociaal domein',
        },
      ],
    }),
    user({
      first: '=HYPERLINK("https://kwaad.example")',
      last: '@Bakker',
      email: 'bert@voorbeeldstad.nl',
      state: 'inactive',
      verified: false,
      factors: [],
      created_at: '2025-12-31T12:00:00Z',
    }),
  ]);

  it('starts with a byte order mark and a header of Dutch column names, separated by semicolons', () => {
    expect(
      csv.startsWith(
        '\uFEFFVoornaam;Achternaam;E-mailadres;Type gebruiker;Datarollen;' +
          'Aangemaakt;Status;Authenticator-app;Tweede factor;E-mailadres bevestigd\r\n',
      ),
    ).toBe(true);
  });

  it('writes one row per user, quoting what holds a semicolon', () => {
    const rows = Papa.parse<string[]>(csv.slice(1).trim(), { delimiter: ';' }).data;
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
    ]);
    expect(csv).toContain(';"de Vries; Jansen";');
  });

  it('makes a cell that would start a formula plain text', () => {
    const rows = Papa.parse<string[]>(csv.slice(1).trim(), { delimiter: ';' }).data;
    expect(rows[2]!.slice(0, 2)).toEqual([`'=HYPERLINK("https://kwaad.example")`, `'@Bakker`]);
    expect(rows[2]!.slice(5)).toEqual(['2025-12-31', 'geblokkeerd', 'nee', 'geen', 'nee']);
  });
});

describe('usersCsv of people from other organisations', () => {
  it('says invited for an invitation and leaves the second factors empty for guests and invited people', () => {
    const rows = Papa.parse<string[]>(
      usersCsv([
        user({ first: 'Gast', last: 'Elders', email: 'gast@dego.nl', home: false }),
        user({
          first: 'Ina',
          last: 'Uitgenodigd',
          email: 'ina@dego.nl',
          home: false,
          credentials: [],
          invitation: { id: 'i1', expiresAt: '2026-11-26T15:00:00Z' },
        }),
        user({ first: 'Thuis', last: 'Lid', email: 'thuis@voorbeeldstad.nl', home: true, factors: ['passkey'] }),
      ])
        .slice(1)
        .trim(),
      { delimiter: ';' },
    ).data;
    expect(rows.slice(1).map((row) => row.slice(6))).toEqual([
      ['actief', '', '', 'ja'],
      ['uitgenodigd', '', '', 'ja'],
      ['actief', 'nee', 'passkey', 'ja'],
    ]);
  });
});

describe('usersCsvName', () => {
  it('names the organisation and the day', () => {
    expect(usersCsvName('voorbeeldstad', new Date(2026, 10, 3))).toBe('gebruikers-voorbeeldstad-2026-11-03.csv');
  });
});
