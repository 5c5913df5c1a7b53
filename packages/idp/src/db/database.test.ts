import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.js';

let directory: string;
let db: Db | undefined;

afterEach(async () => {
  await db?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

describe('a SQLite database that another process writes to as well', () => {
  it('lets a transaction that reads first write after all: it holds the write lock from its start', async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dvp-db-'));
    const file = path.join(directory, 'portaal.sqlite');
    db = openDatabase(file);
    await sql`create table counter (n integer not null)`.execute(db.kysely);
    await sql`insert into counter values (0)`.execute(db.kysely);
    // The other process: a second connection that does not wait for a lock.
    const other = new SQLite(file, { timeout: 0 });
    let otherWrite: unknown;
    try {
      await db.kysely.transaction().execute(async (trx) => {
        await sql`select n from counter`.execute(trx);
        try {
          other.exec('update counter set n = n + 10');
        } catch (error) {
          otherWrite = error;
        }
        await sql`update counter set n = n + 1`.execute(trx);
      });
    } finally {
      other.close();
    }
    // The other writer found the lock taken and can try again; the transaction that began first is not undone.
    expect(otherWrite).toMatchObject({ code: 'SQLITE_BUSY' });
    const { rows } = await sql<{ n: number }>`select n from counter`.execute(db.kysely);
    expect(rows).toEqual([{ n: 1 }]);
  });
});

// The change mark (the check mark, check-marks.ts) on both engines and across processes:
// packages/users-api/src/db/check-marks.integration.test.ts.
