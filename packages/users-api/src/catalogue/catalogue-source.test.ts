import type { Db } from '@portaal/idp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../test-support/migrated-database.js';
import { replaceCatalogue } from './catalogue-repository.js';
import { createCatalogueSource, DEMO_CATALOGUE_FILE } from './catalogue-source.js';

let db: Db;
beforeEach(async () => {
  db = await migratedDatabase();
});
afterEach(() => db.close());

describe('the catalogue in force', () => {
  it('stays the same object across reads while nothing changed, so that passes kept with it stay usable', async () => {
    let clock = 0;
    const source = createCatalogueSource(db.kysely, () => clock);
    const loaded = await source.loadFile(DEMO_CATALOGUE_FILE);
    clock += 10_000;
    const read = await source.current();
    expect(read).toBe(loaded);

    // Another process changes it: the next read after the cache time is a new catalogue.
    const changed = { ...loaded, services: loaded.services.map((s, n) => (n === 0 ? { ...s, name: 'Anders' } : s)) };
    await replaceCatalogue(db.kysely, changed);
    expect(await source.current(), 'within the cache time').toBe(read);
    clock += 10_000;
    const after = await source.current();
    expect(after).not.toBe(read);
    expect(after.services[0]?.name).toBe('Anders');
  });
});
