import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import {
  DEMO_PASSWORD,
  api,
  createMember,
  portaalCli,
  portaalCommand,
  relationTuples,
  signInAtAal1,
  writeTuple,
  type Person,
} from '../support/portal-users.js';
import { uniqueEmail } from '../support/identities.js';

const demoFile = new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url);

let portaal: Deployment;
let analist: Person;
let folder: string;
beforeAll(async () => {
  portaal = await startDeployment({ args: ['--demo'] });
  analist = await signInAtAal1(portaal, 'analist@dego.nl', DEMO_PASSWORD);
  folder = mkdtempSync(path.join(os.tmpdir(), 'portaal-catalogue-'));
});
afterAll(async () => {
  await portaal?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const serviceIds = async () =>
  (await api(portaal, analist.browser, 'GET', '/services')).body.services.map((s: { id: string }) => s.id);

describe('portaal catalogue load', () => {
  it('refuses a malformed file with the path of the bad entry and keeps the catalogue in force', async () => {
    const before = await serviceIds();
    const bad = JSON.parse(readFileSync(demoFile, 'utf8'));
    bad.services[3].access.dataRoles[1] = 'onbekend_dego';
    const file = path.join(folder, 'fout.json');
    writeFileSync(file, JSON.stringify(bad));
    const result = portaalCli(portaal, ['catalogue', 'load', file], 'portal');
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      "Catalogus niet geladen: services[3].access.dataRoles[1]: onbekende datarol 'onbekend_dego'",
    );
    const broken = path.join(folder, 'kapot.json');
    writeFileSync(broken, '{ "organisations": [');
    expect(portaalCli(portaal, ['catalogue', 'load', broken], 'portal').stderr).toMatch(
      /kapot\.json: geen geldige JSON/,
    );
    await new Promise((r) => setTimeout(r, 5_500));
    expect(await serviceIds()).toEqual(before);
  });

  it('loads a valid file, which the running server picks up', async () => {
    const changed = JSON.parse(readFileSync(demoFile, 'utf8'));
    changed.services.push({
      id: 'nieuw',
      name: 'Nieuwe dienst',
      description: 'Net toegevoegd.',
      url: 'https://nieuw.voorbeeld.nl',
      access: { organisations: ['dego'] },
    });
    const file = path.join(folder, 'goed.json');
    writeFileSync(file, JSON.stringify(changed));
    const result = portaalCli(portaal, ['catalogue', 'load', file], 'portal');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      'Wat deze catalogus verandert:\n  + datavoorziening nieuw (Nieuwe dienst)\n' +
        'Catalogus geladen: 3 organisatie(s), 6 datavoorziening(en).\n',
    );
    await vi.waitFor(async () => expect(await serviceIds()).toContain('nieuw'), { timeout: 8_000, interval: 500 });
  });

  it('exports what is in force, which loads again without a change', async () => {
    const file = path.join(folder, 'export.json');
    const exported = portaalCli(portaal, ['catalogue', 'export', file], 'portal');
    expect(exported.status, exported.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).services.map((s: { id: string }) => s.id)).toContain('nieuw');
    const again = portaalCli(portaal, ['catalogue', 'load', file], 'portal');
    expect(again.stdout).toMatch(/^De catalogus is gelijk aan wat al geldt: er verandert niets\.\n/);
  });

  it('a dry run names who would lose a removed data role; the load then takes it from them', async () => {
    const email = uniqueEmail('analyse');
    const id = await createMember(portaal, { email, password: DEMO_PASSWORD, org: 'dego' });
    const role = { namespace: 'subdivisions', object: 'analyse_dego', relation: 'issuer' };
    await writeTuple(portaal.adminUrl, 'PUT', { ...role, subject_id: id });
    const smaller = JSON.parse(readFileSync(path.join(folder, 'export.json'), 'utf8'));
    smaller.organisations.find((o: { id: string }) => o.id === 'dego').dataRoles = [];
    for (const service of smaller.services) {
      service.access.dataRoles = service.access.dataRoles.filter((r: string) => r !== 'analyse_dego');
      if (service.access.dataRoles.length + service.access.organisations.length === 0)
        service.access.organisations = ['dego'];
    }
    const file = path.join(folder, 'zonder-analyse.json');
    writeFileSync(file, JSON.stringify(smaller));
    const dry = await portaalCommand(portaal, ['catalogue', 'load', file, '--dry-run'], 'portal');
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('  - datarol analyse_dego (Analyse)\n');
    expect(dry.stdout).toMatch(
      new RegExp(`verliezen de datarol analyse_dego \\(Analyse\\):\\n(  .*\\n)*  ${email}\\n`),
    );
    expect(dry.stdout).toMatch(/Er is niets geladen \(--dry-run\)\.\n$/);
    expect(await relationTuples(portaal, { ...role, subject_id: id })).toHaveLength(1);

    const loaded = await portaalCommand(portaal, ['catalogue', 'load', file], 'portal');
    expect(loaded.status, loaded.stderr).toBe(0);
    expect(await relationTuples(portaal, { ...role, subject_id: id })).toEqual([]);
  });
});
