import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, isDatabaseUnavailable, unavailableAwareDialect } from './database-unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['an ended backend (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (08006)', withCode('connection failure', '08006')],
    ['too many connections (53300)', withCode('sorry, too many clients already', '53300')],
    ['a connection ended mid-query', new Error('Connection terminated unexpectedly')],
    ['a pool that waited too long', new Error('timeout exceeded when trying to connect')],
    ['a busy SQLite database', withCode('database is locked', 'SQLITE_BUSY')],
  ])('counts %s as the database being unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a syntax error', withCode('syntax error at or near "selec"', '42601')],
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a SQLite constraint', withCode('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain error', new Error('something else')],
    ['a thrown string', 'ECONNREFUSED'],
  ])('does not count %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('unavailableAwareDialect', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function openPair() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portaal-unavailable-'));
    dirs.push(dir);
    const file = path.join(dir, 'test.sqlite');
    const database = new SQLite(file);
    database.pragma('busy_timeout = 0');
    const reported: unknown[] = [];
    const db = new Kysely<{ items: { id: number } }>({
      dialect: unavailableAwareDialect(new SqliteDialect({ database }), (error) => reported.push(error)),
    });
    const other = new SQLite(file);
    return { db, other, reported };
  }

  it('runs queries and transactions as the wrapped dialect does', async () => {
    const { db, other } = openPair();
    await sql`create table items (id integer primary key)`.execute(db);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 1 }).execute();
    });
    expect(await db.selectFrom('items').selectAll().execute()).toEqual([{ id: 1 }]);
    other.close();
    await db.destroy();
  });

  it('turns a locked database into DatabaseUnavailableError (503) and reports it', async () => {
    const { db, other, reported } = openPair();
    await sql`create table items (id integer primary key)`.execute(db);
    other.exec('begin exclusive');
    const failure = await db
      .insertInto('items')
      .values({ id: 2 })
      .execute()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect((failure as DatabaseUnavailableError).statusCode).toBe(503);
    expect((failure as Error).cause).toMatchObject({ code: 'SQLITE_BUSY' });
    expect(reported).toHaveLength(1);
    other.exec('rollback');
    await db.insertInto('items').values({ id: 2 }).execute();
    other.close();
    await db.destroy();
  });

  it('passes other errors on unchanged and reports nothing', async () => {
    const { db, other, reported } = openPair();
    const failure = await sql`selec 1`.execute(db).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(DatabaseUnavailableError);
    expect((failure as { code?: string }).code).toBe('SQLITE_ERROR');
    expect(reported).toEqual([]);
    other.close();
    await db.destroy();
  });
});
