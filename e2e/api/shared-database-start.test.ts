import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedTestDatabase } from '../support/database.js';
import { startPortaal, type Portaal } from '../support/portaal.js';

/**
 * After a database restart a supervisor starts every `portaal` process at once, each loading the same
 * CATALOGUE_FILE into the same new database. Every one of them must become ready; none may exit on the other's rows.
 */
const catalogueFile = fileURLToPath(new URL('../../packages/users-api/catalogue/demo-catalogue.json', import.meta.url));
const onPostgres = process.env.TEST_DATABASE === 'postgres';
// Without serialised start-up writes this failed 11 times in 13 on PostgreSQL (the catalogue) and about once in
// 5 on SQLite (the migrations). So 8 trials on PostgreSQL miss such a regression with a chance of (2/13)^8, about
// one in three million, and 10 on SQLite with 0.8^10, about one in nine.
const TRIALS = onPostgres ? 8 : 10;

describe('two processes starting together on one new database', () => {
  it(`both become ready with CATALOGUE_FILE, ${TRIALS} times in a row`, async () => {
    for (let trial = 1; trial <= TRIALS; trial++) {
      const database = await sharedTestDatabase();
      const env = { DATABASE_URL: database.url, CATALOGUE_FILE: catalogueFile };
      const started = await Promise.allSettled([startPortaal({ env }), startPortaal({ env })]);
      const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      try {
        const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
        expect(failures, `trial ${trial}`).toEqual([]);
        for (const portaal of running as Portaal[]) {
          expect((await fetch(`${portaal.adminUrl}/health/ready`)).status).toBe(200);
          expect(portaal.output()).not.toMatch(/duplicate key|UNIQUE constraint/);
        }
      } finally {
        await Promise.all(running.map((portaal) => portaal.stop()));
        database.remove();
      }
    }
  }, 300_000);
});
