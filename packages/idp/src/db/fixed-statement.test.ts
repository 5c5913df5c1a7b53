import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.js';
import { fixedInsert, fixedStatement, runFixed } from './fixed-statement.js';

// Fixed statements on a real SQLite file: outside a transaction they run at once on the compiled statement, inside
// one on its connection; PostgreSQL runs every e2e/api test with them (TEST_DATABASES=postgres).

let directory: string;
let db: Db;

const INSERT = fixedInsert<{ id: string; note: string | null }>('test_insert_note', 'notes', ['id', 'note']);
const NOTES = fixedStatement('test_notes', 'select id, note from notes order by id');
const NOTE = fixedStatement('test_note', 'select note from notes where id = ? and note = ?');

beforeEach(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dvp-fixed-'));
  db = openDatabase(path.join(directory, 'portaal.sqlite'));
  await sql`create table notes (id text primary key, note text)`.execute(db.kysely);
});

afterEach(async () => {
  await db.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

describe('a fixed statement', () => {
  it("numbers SQLite's placeholders for PostgreSQL", () => {
    expect(NOTE.sql).toEqual({
      sqlite: 'select note from notes where id = ? and note = ?',
      postgres: 'select note from notes where id = $1 and note = $2',
    });
    expect(INSERT.statement.sql.postgres).toBe('insert into notes (id, note) values ($1, $2)');
    expect(INSERT.values({ note: 'b', id: 'a' })).toEqual(['a', 'b']);
  });

  it('writes and reads on the database, with its parameters bound in order', async () => {
    await runFixed(db.kysely, INSERT.statement, INSERT.values({ id: 'a', note: 'eerste' }));
    await runFixed(db.kysely, INSERT.statement, INSERT.values({ id: 'b', note: null }));
    expect(await runFixed(db.kysely, NOTES, [])).toEqual([
      { id: 'a', note: 'eerste' },
      { id: 'b', note: null },
    ]);
    expect(await runFixed(db.kysely, NOTE, ['a', 'eerste'])).toEqual([{ note: 'eerste' }]);
    expect(await runFixed(db.kysely, NOTE, ['a', 'tweede'])).toEqual([]);
  });

  it('is part of the transaction it is given: a rollback undoes it', async () => {
    const refused = db.kysely.transaction().execute(async (trx) => {
      await runFixed(trx, INSERT.statement, INSERT.values({ id: 'a', note: 'binnen' }));
      expect(await runFixed(trx, NOTES, [])).toHaveLength(1);
      throw new Error('teruggedraaid');
    });
    await expect(refused).rejects.toThrow('teruggedraaid');
    expect(await runFixed(db.kysely, NOTES, [])).toEqual([]);
  });

  it("on the database waits for another request's transaction, and is not undone with it", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inside = () => {};
    const begun = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const other = db.kysely.transaction().execute(async (trx) => {
      await runFixed(trx, INSERT.statement, INSERT.values({ id: 'x', note: 'van de ander' }));
      inside();
      await held;
      throw new Error('teruggedraaid');
    });
    await begun;
    // Another request writes while that transaction holds the one connection.
    const mine = runFixed(db.kysely, INSERT.statement, INSERT.values({ id: 'y', note: 'van mij' }));
    release();
    await expect(other).rejects.toThrow('teruggedraaid');
    await mine;
    expect(await runFixed(db.kysely, NOTES, [])).toEqual([{ id: 'y', note: 'van mij' }]);
  });

  it('refuses a duplicate key with the database error, writing nothing', async () => {
    await runFixed(db.kysely, INSERT.statement, INSERT.values({ id: 'a', note: 'eerste' }));
    await expect(
      runFixed(db.kysely, INSERT.statement, INSERT.values({ id: 'a', note: 'tweede' })),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(await runFixed(db.kysely, NOTES, [])).toEqual([{ id: 'a', note: 'eerste' }]);
  });
});
