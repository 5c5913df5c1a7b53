import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.js';

// The SQLite connection is handed out for every query; what wraps it must do so once, or each query would add a level.
let db: Db;
afterEach(async () => {
  await db.close();
});

describe('the SQLite connection', () => {
  it('answers many queries in a row without growing a wrapper per query', async () => {
    db = openDatabase(':memory:');
    for (let i = 0; i < 20_000; i += 1) await sql`select 1`.execute(db.kysely);
    expect((await sql<{ n: number }>`select 2 as n`.execute(db.kysely)).rows[0]!.n).toBe(2);
  });
});
