import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { useJourney } from './support/journey.js';
import { signInAsAdministrator } from './support/pages.js';
import { atBothWidths, expectScreenFits } from './support/layout.js';

// Journey 31: 'Personen importeren'. An administrator imports 50 people from a CSV file, 3 of them refused for
// their content: the preview says per row what will happen, the import runs with a progress bar, the report is
// downloaded, and the same file again would change nothing.

const journey = useJourney();
const RUN = randomUUID().slice(0, 6);
const dir = mkdtempSync(path.join(os.tmpdir(), 'import-journey-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const addressOf = (i: number) => `import-${RUN}-${i}@voorbeeldstad.nl`;

/** 47 new people (every third with two data roles), an invalid address, an unknown data role and a repeat. */
function file(): string {
  const people = Array.from(
    { length: 47 },
    (_, i) => `Persoon;Nummer ${i + 1};${addressOf(i + 1)};${i % 3 === 0 ? '"Sociaal domein, Financiën"' : ''};nee`,
  );
  const lines = [
    'Voornaam;Achternaam;E-mailadres;Datarollen;Beheerder',
    ...people,
    'Fout;Adres;geen-adres;;',
    `Onbekende;Rol;rol-${RUN}@voorbeeldstad.nl;Toerisme;`,
    `Dubbel;Persoon;${addressOf(1)};;`,
  ];
  const written = path.join(dir, 'collega-s.csv');
  writeFileSync(written, `${lines.join('\r\n')}\r\n`);
  return written;
}

describe("journey 31: 'Personen importeren'", () => {
  it('imports 50 people with 3 refused, reports it, and the same file again changes nothing', async () => {
    const { page } = await signInAsAdministrator(journey);
    const csv = file();
    await page.getByRole('link', { name: 'Personen importeren' }).click();
    await page.getByRole('heading', { level: 1, name: 'Personen importeren' }).waitFor();
    await atBothWidths(page, () => expectScreenFits(page, "'Personen importeren' before a file"));

    // Without a file, the field says what is missing.
    await page.getByRole('button', { name: 'Controleren' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Kies een CSV-bestand.').waitFor();

    await page.getByLabel('CSV-bestand').setInputFiles(csv);
    await page.getByRole('button', { name: 'Controleren' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('47 nieuwe accounts, 0 uitnodigingen, 0 aangevuld, 0 ongewijzigd, 3 geweigerd.').waitFor();
    const refused = page.getByRole('row').filter({ hasText: 'Geweigerd' });
    expect(await refused.allTextContents()).toEqual([
      expect.stringContaining('Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.'),
      expect.stringContaining("Datarol 'Toerisme' bestaat niet in Gemeente Voorbeeldstad."),
      expect.stringContaining('Dit e-mailadres staat ook op regel 2.'),
    ]);
    await atBothWidths(page, () => expectScreenFits(page, 'the preview of an import'));

    await page.getByRole('button', { name: 'Importeren' }).focus();
    await page.keyboard.press('Enter');
    const done = page.getByText(
      'De import is klaar: 47 accounts aangemaakt, 0 uitgenodigd, 0 aangevuld, 0 ongewijzigd, 3 geweigerd.',
    );
    await done.waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('De import is klaar');
    const invitation = await journey.portaal.mail.waitFor(addressOf(47));
    expect(invitation.text).toContain('Gemeente Voorbeeldstad');
    await atBothWidths(page, () => expectScreenFits(page, 'an import that is done'));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Verslag downloaden (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^import-voorbeeldstad-\d{4}-\d\d-\d\d\.csv$/);
    const report = readFileSync(await download.path(), 'utf8')
      .split('\r\n')
      .filter(Boolean);
    expect(report).toHaveLength(51);
    expect(report.filter((line) => line.includes(';geweigerd;'))).toHaveLength(3);
    expect(report[1]).toBe(
      `2;${addressOf(1)};Persoon;Nummer 1;Sociaal domein, Financiën;nee;account aangemaakt en uitgenodigd;`,
    );

    // The same file again: nothing to do, so nothing to start.
    await page.getByRole('button', { name: 'Nog een bestand importeren' }).click();
    await page.getByLabel('CSV-bestand').setInputFiles(csv);
    await page.getByRole('button', { name: 'Controleren' }).click();
    await page.getByText('0 nieuwe accounts, 0 uitnodigingen, 0 aangevuld, 47 ongewijzigd, 3 geweigerd.').waitFor();
    expect(await page.getByRole('button', { name: 'Importeren' }).count()).toBe(0);
  });
});
