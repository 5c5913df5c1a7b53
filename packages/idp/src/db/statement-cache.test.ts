import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { StatementCache } from './statement-cache.js';

const counting = (database: SQLite.Database) => {
  const compiled: string[] = [];
  return {
    compiled,
    prepare(text: string) {
      compiled.push(text);
      return database.prepare(text);
    },
    close: () => database.close(),
  };
};

describe('StatementCache', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands back the same statement for the same SQL and compiles it once', () => {
    const database = counting(new SQLite(':memory:'));
    const cache = new StatementCache(database);
    const first = cache.prepare('select 1 as one');
    expect(cache.prepare('select 1 as one')).toBe(first);
    expect(cache.prepare('select 2 as two')).not.toBe(first);
    expect(database.compiled).toEqual(['select 1 as one', 'select 2 as two']);
    cache.close();
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const database = counting(new SQLite(':memory:'));
    const cache = new StatementCache(database, 2);
    const a = cache.prepare('select 1');
    cache.prepare('select 2');
    expect(cache.prepare('select 1')).toBe(a); // now 2 is the least recently used
    cache.prepare('select 3');
    expect(cache.size).toBe(2);
    expect(cache.prepare('select 1')).toBe(a);
    database.compiled.length = 0;
    cache.prepare('select 2');
    expect(database.compiled).toEqual(['select 2']);
    expect(cache.size).toBe(2);
    cache.close();
  });

  it('answers correctly through Kysely, also for statements compiled again after eviction', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portaal-statements-'));
    dirs.push(dir);
    const database = counting(new SQLite(path.join(dir, 'db.sqlite')));
    const cache = new StatementCache(database, 3);
    const db = new Kysely<{ t: { id: number; name: string } }>({ dialect: new SqliteDialect({ database: cache }) });
    await sql`create table t (id integer primary key, name text not null)`.execute(db);
    for (let id = 1; id <= 20; id += 1)
      await db
        .insertInto('t')
        .values({ id, name: `n${id}` })
        .execute();
    const byId = (id: number) => db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst();
    const count = () =>
      db
        .selectFrom('t')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
    const names = () => db.selectFrom('t').select('id').orderBy('id', 'desc').limit(2).execute();
    let seventh = 'n7';
    for (let round = 0; round < 3; round += 1) {
      expect(await byId(7)).toEqual({ name: seventh });
      expect(await byId(8)).toEqual({ name: 'n8' });
      expect(await count()).toEqual({ n: 20 });
      expect(await names()).toEqual([{ id: 20 }, { id: 19 }]);
      seventh = `r${round}`;
      await db.updateTable('t').set({ name: seventh }).where('id', '=', 7).execute();
      expect(await byId(7)).toEqual({ name: seventh });
    }
    expect(cache.size).toBe(3);
    // Three distinct reads and an update rotate through three places: the lookup by id was compiled again.
    expect(database.compiled.filter((text) => text.startsWith('select "name"')).length).toBeGreaterThan(1);
    await db.destroy();
  });

  it('never hands out a statement that an unfinished iterate() still holds', () => {
    const cache = new StatementCache(new SQLite(':memory:'));
    const text = 'select 1 as n union all select 2';
    const streaming = cache.prepare(text) as SQLite.Statement;
    const rows = streaming.iterate();
    expect(rows.next().value).toEqual({ n: 1 });
    const meanwhile = cache.prepare(text);
    expect(meanwhile).not.toBe(streaming);
    expect(meanwhile.all([])).toEqual([{ n: 1 }, { n: 2 }]);
    expect(rows.next().value).toEqual({ n: 2 });
    rows.return?.();
    expect(cache.prepare(text)).toBe(streaming);
    cache.close();
  });

  it('keeps nothing of SQL that does not compile', () => {
    const cache = new StatementCache(new SQLite(':memory:'));
    expect(() => cache.prepare('selec 1')).toThrow(/syntax error/);
    expect(cache.size).toBe(0);
    cache.close();
  });
});
