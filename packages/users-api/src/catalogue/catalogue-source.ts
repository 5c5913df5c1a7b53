import fs from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { UsersApiDatabase } from '../db/schema.js';
import { CatalogueError, parseCatalogue, type Catalogue } from './catalogue.js';
import { readCatalogue, replaceCatalogue } from './catalogue-repository.js';

/** The demo catalogue that ships with the product: fictional municipalities, `dego`, data roles and services. */
export const DEMO_CATALOGUE_FILE = new URL('../../catalogue/demo-catalogue.json', import.meta.url);

/**
 * The catalogue in force, cached in memory for a few seconds and replaced at once by a load. A file that fails to
 * parse or validate is refused with the path of the bad entry and the previous catalogue stays in force.
 */
export interface CatalogueSource {
  current(): Promise<Catalogue>;
  loadFile(file: string | URL): Promise<Catalogue>;
}

/** How long a read catalogue is trusted; `portaal catalogue load` in another process is seen within this time. */
const CACHE_MS = 5_000;

export function createCatalogueSource<DB>(db: Kysely<DB>, now: () => number = Date.now): CatalogueSource {
  const typed = db as unknown as Kysely<UsersApiDatabase>;
  let cached: { catalogue: Promise<Catalogue>; at: number } | undefined;
  return {
    current() {
      if (!cached || now() - cached.at > CACHE_MS) {
        const reading = readCatalogue(typed);
        cached = { catalogue: reading, at: now() };
        reading.catch(() => {
          cached = undefined;
        });
      }
      return cached.catalogue;
    },
    async loadFile(file) {
      let raw: unknown;
      try {
        raw = JSON.parse(await fs.readFile(file, 'utf8'));
      } catch (error) {
        const reason =
          error instanceof SyntaxError ? `geen geldige JSON (${error.message})` : 'kan het bestand niet lezen';
        throw new CatalogueError(`${String(file instanceof URL ? file.pathname : file)}: ${reason}`);
      }
      const catalogue = parseCatalogue(raw);
      await replaceCatalogue(typed, catalogue);
      cached = { catalogue: Promise.resolve(catalogue), at: now() };
      return catalogue;
    },
  };
}
