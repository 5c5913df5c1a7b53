import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCatalogue } from './catalogue.js';
import { catalogueDiff, catalogueFileOf } from './catalogue-diff.js';

const demo = () =>
  JSON.parse(readFileSync(new URL('../../catalogue/demo-catalogue.json', import.meta.url), 'utf8')) as {
    organisations: { id: string; label: string; requiresAal2: boolean; dataRoles: { id: string; label: string }[] }[];
    services: { id: string; name: string; access: { dataRoles?: string[]; organisations?: string[] } }[];
  };

describe('a catalogue written as a file and compared with another', () => {
  it('writes a file that parses back to the same catalogue', () => {
    const catalogue = parseCatalogue(demo());
    expect(parseCatalogue(catalogueFileOf(catalogue))).toEqual(catalogue);
    expect(catalogueDiff(catalogue, catalogue)).toEqual({ lines: [], removedDataRoles: [] });
  });

  it('says per line what a load would add, change and remove', () => {
    const current = parseCatalogue(demo());
    const file = demo();
    file.organisations.push({ id: 'nieuwstad', label: 'Gemeente Nieuwstad', requiresAal2: true, dataRoles: [] });
    const dijkstad = file.organisations.find((o) => o.id === 'dijkstad')!;
    dijkstad.label = 'Gemeente Dijkstad-Noord';
    dijkstad.requiresAal2 = false;
    dijkstad.dataRoles = dijkstad.dataRoles.filter((r) => r.id !== 'veiligheid');
    for (const service of file.services)
      service.access.dataRoles = (service.access.dataRoles ?? []).filter((r) => r !== 'veiligheid_dijkstad');
    file.services = file.services.filter(
      (s) => (s.access.dataRoles ?? []).length + (s.access.organisations ?? []).length > 0,
    );
    file.services[0]!.name = 'Andere naam';
    const diff = catalogueDiff(current, parseCatalogue(file));
    expect(diff.lines).toEqual(
      expect.arrayContaining([
        '+ organisatie nieuwstad (Gemeente Nieuwstad)',
        "~ organisatie dijkstad: naam 'Gemeente Dijkstad' wordt 'Gemeente Dijkstad-Noord'",
        '~ organisatie dijkstad: tweede factor niet meer verplicht',
        '- datarol veiligheid_dijkstad (Openbare orde en veiligheid)',
        `~ datavoorziening ${file.services[0]!.id} (Andere naam) gewijzigd`,
      ]),
    );
    expect(diff.removedDataRoles).toEqual([{ object: 'veiligheid_dijkstad', label: 'Openbare orde en veiligheid' }]);
  });
});
