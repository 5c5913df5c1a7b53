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
  /** Reads and checks a file without loading it: what a dry run compares with `current`. */
  readFile(file: string | URL): Promise<Catalogue>;
  /** Reads the catalogue again at the next call: after a change made in 'Programmabeheer' (catalogue-writes.ts). */
  forget(): void;
}

/**
 * How long a read catalogue is trusted: a load or a change in 'Programmabeheer' made in another process is seen
 * within this time.
 */
// Two seconds keeps a change made in another process within the 5 s that 'Programmabeheer' promises, request time
// included, for five small reads per process every two seconds.
const CACHE_MS = 2_000;

/**
 * A catalogue of every Dutch municipality with its data roles and services is a few hundred kB; beyond this a file
 * is refused before it is parsed, so a huge or deeply nested one cannot take the memory of the process that loads it.
 */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** The file's text, read up to the limit: also a device or pipe that never ends is refused. */
async function readLimited(file: string | URL): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_FILE_BYTES) throw new CatalogueError('groter dan 5 MB');
    return buffer.toString('utf8', 0, length);
  } finally {
    await handle.close();
  }
}

/** A catalogue file, read within the size limit, parsed and checked; refused with the path of its first bad entry. */
async function readCatalogueFile(file: string | URL): Promise<Catalogue> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readLimited(file));
  } catch (error) {
    const reason =
      error instanceof SyntaxError
        ? `geen geldige JSON (${error.message})`
        : error instanceof CatalogueError
          ? error.message
          : 'kan het bestand niet lezen';
    throw new CatalogueError(`${String(file instanceof URL ? file.pathname : file)}: ${reason}`);
  }
  return parseCatalogue(raw);
}

/**
 * The catalogue read before when the one read now holds the same, so that what was decided with it and kept (a
 * forward-auth pass, kept-checks.ts) stays usable; only a catalogue that changed is a new object.
 */
async function sameIfUnchanged(before: Promise<Catalogue> | undefined, reading: Promise<Catalogue>) {
  const [previous, fresh] = await Promise.all([before?.catch(() => undefined), reading]);
  return previous && JSON.stringify(previous) === JSON.stringify(fresh) ? previous : fresh;
}

export function createCatalogueSource<DB>(db: Kysely<DB>, now: () => number = Date.now): CatalogueSource {
  const typed = db as unknown as Kysely<UsersApiDatabase>;
  let cached: { catalogue: Promise<Catalogue>; at: number } | undefined;
  return {
    current() {
      if (!cached || now() - cached.at > CACHE_MS) {
        const reading = sameIfUnchanged(cached?.catalogue, readCatalogue(typed));
        cached = { catalogue: reading, at: now() };
        reading.catch(() => {
          cached = undefined;
        });
      }
      return cached.catalogue;
    },
    readFile: readCatalogueFile,
    async loadFile(file) {
      const catalogue = await readCatalogueFile(file);
      await replaceCatalogue(typed, catalogue);
      cached = { catalogue: Promise.resolve(catalogue), at: now() };
      return catalogue;
    },
    forget() {
      cached = undefined;
    },
  };
}
