import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDeployment, type Deployment } from '../support/deployment.js';
import { DEMO_PASSWORD, api, portaalCli, signInAtAal1, type Person } from '../support/portal-users.js';

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
    expect(result.stdout).toBe('Catalogus geladen: 3 organisatie(s), 6 datavoorziening(en).\n');
    await vi.waitFor(async () => expect(await serviceIds()).toContain('nieuw'), { timeout: 8_000, interval: 500 });
  });
});
