import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** What the cache needs of better-sqlite3: a statement says whether it is still being iterated. */
interface BusyAwareStatement extends SqliteStatement {
  readonly busy: boolean;
}

interface PreparingDatabase {
  prepare(sql: string): BusyAwareStatement;
  close(): void;
}

/** How many compiled statements are kept; the product runs far fewer distinct ones, so the bound is a safety net. */
const DEFAULT_STATEMENT_CACHE_SIZE = 500;

/**
 * A SQLite database for Kysely's SqliteDialect whose `prepare` hands back the statement compiled earlier for the same
 * SQL text. Kysely prepares on every query, and compiling costs SQLite more than running the session lookup itself
 * (docs/architecture.md#sqlite-by-default-postgresql-for-scale). Least recently used statements are dropped beyond
 * `capacity`.
 *
 * better-sqlite3 refuses to run a statement while an `iterate()` over it is unfinished, which only Kysely's
 * `streamQuery` does (this project calls it nowhere). A cached statement that is busy is therefore never handed out
 * again: the caller gets a fresh, uncached one instead. Running it does not depend on earlier runs: Kysely binds every
 * parameter anew and never sets `raw`, `pluck`, `expand` or `bind` on a statement.
 */
export class StatementCache implements SqliteDatabase {
  readonly #database: PreparingDatabase;
  readonly #capacity: number;
  // A Map iterates in insertion order; re-inserting on use keeps the least recently used first.
  readonly #statements = new Map<string, BusyAwareStatement>();

  constructor(database: PreparingDatabase, capacity = DEFAULT_STATEMENT_CACHE_SIZE) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.#database = database;
    this.#capacity = capacity;
  }

  /** How many compiled statements are held now. */
  get size(): number {
    return this.#statements.size;
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached) {
      if (cached.busy) return this.#database.prepare(sql);
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    // A statement that does not compile throws here and is not kept.
    const statement = this.#database.prepare(sql);
    this.#statements.set(sql, statement);
    if (this.#statements.size > this.#capacity) {
      const oldest = this.#statements.keys().next().value as string;
      this.#statements.delete(oldest);
    }
    return statement;
  }

  close(): void {
    this.#statements.clear();
    this.#database.close();
  }
}
