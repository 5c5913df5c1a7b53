import fs from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { UsersApiDatabase } from '../db/schema.js';
import { CatalogueError, parseCatalogue, type Catalogue } from './catalogue.js';
import { readCatalogue, replaceCatalogue } from './catalogue-repository.js';

/** The demo catalogue that ships with the product: fictional municipalities, `dego`, data roles and services. */
export const DEMO_CATALOGUE_FILE = new URL('../../catalogue/demo-catalogue.json', import.meta.url);

/**
 * The catalogue in force, cached in memory and re-read after a load. A file that fails to parse or validate is
 * refused with the path of the bad entry and the previous catalogue stays in force.
 */
export interface CatalogueSource {
  current(): Promise<Catalogue>;
  loadFile(file: string | URL): Promise<Catalogue>;
}

export function createCatalogueSource(db: Kysely<any>): CatalogueSource {
  const typed = db as Kysely<UsersApiDatabase>;
  let cached: Promise<Catalogue> | undefined;
  return {
    current() {
      cached ??= readCatalogue(typed).catch((error: unknown) => {
        cached = undefined;
        throw error;
      });
      return cached;
    },
    async loadFile(file) {
      let raw: unknown;
      try {
        raw = JSON.parse(await fs.readFile(file, 'utf8'));
      } catch (error) {
        const reason = error instanceof SyntaxError ? `geen geldige JSON (${error.message})` : 'kan het bestand niet lezen';
        throw new CatalogueError(`${String(file instanceof URL ? file.pathname : file)}: ${reason}`);
      }
      const catalogue = parseCatalogue(raw);
      await replaceCatalogue(typed, catalogue);
      cached = Promise.resolve(catalogue);
      return catalogue;
    },
  };
}
