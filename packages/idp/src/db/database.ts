import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type Dialect,
  type Driver,
  type SqliteStatement,
} from 'kysely';
import {
  DatabaseUnavailableError,
  isStorageFailure,
  rethrowUnavailable,
  unavailableAwareDialect,
} from './database-unavailable.js';
import { CHECK_MARK } from './check-marks.js';
import { type FixedRunner, type FixedStatement, useFixedRunner } from './fixed-statement.js';
import { postgresChangeMark } from './postgres-change-mark.js';
import { preparedRunner } from './postgres-prepared.js';
import { StatementCache } from './statement-cache.js';
import type { Database } from './schema.js';

export type DatabaseDialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DatabaseDialect;
  /**
   * Runs start-up work (migrations) while no other process on this database does the same. PostgreSQL's migrators
   * take advisory locks themselves; Kysely's SQLite migrator takes none, so on SQLite this holds a lock file's lock.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs a fixed statement of a hot path, never inside a transaction, and answers its rows: on SQLite at once on the
   * compiled statement (or after the transaction under way on its one connection), on PostgreSQL as a named prepared
   * statement (postgres-prepared.ts). `runFixed(db.kysely, …)` (fixed-statement.ts) comes here too.
   */
  run: FixedRunner;
  /** The reason writes failed for lack of storage (a full disk) within the last STORAGE_FAILURE_MS, if they did. */
  storageFailure(): string | undefined;
  /**
   * The check mark (check-marks.ts): a counter that every committed write able to change a kept session check
   * raises in its own transaction. Equal marks mean no such write committed in between, so a check's answer read
   * under the earlier one is still true. Read after any transaction under way on this process' SQLite connection
   * (never from inside it, where a change could still be rolled back); on PostgreSQL by a query sent after the call
   * (postgres-change-mark.ts).
   */
  changeMark(): string | Promise<string>;
  close(): Promise<void>;
}

/** Where the database layer reports losing its database; a pino or Fastify logger fits. */
export interface DatabaseLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

// A request waits at most this long for a connection, so an outage answers 503 instead of hanging.
const CONNECT_TIMEOUT_MS = 5_000;
// SQLite waits for another process' write lock synchronously, blocking the event loop while it waits: each attempt
// waits at most this long, and the attempts are repeated asynchronously (`retryWhileBusy`) until WRITE_WAIT_MS.
const SQLITE_BUSY_ATTEMPT_MS = 20;
const WRITE_WAIT_MS = 5_000;
// A PostgreSQL statement unanswered this long means a connection gone silent (a failover or a network partition that
// reset nothing); TCP alone would notice only after about 15 minutes. Migrations may take longer and are not timed.
const STATEMENT_SILENCE_MS = 5_000;
// One warning a minute at most while the database stays away.
const WARN_EVERY_MS = 60_000;
// After a write failed for lack of storage, readiness answers 503 this long: a load balancer sends elsewhere, and
// tries again once it has passed (a write that fails again starts it anew).
const STORAGE_FAILURE_MS = 15_000;

/** Opens the database named by a `postgres://` URL or a SQLite file path (or `sqlite:` / `file:` URL). */
export function openDatabase(url: string, log?: DatabaseLog): Db {
  const outage = outageLog(log);
  const open = (dialect: Dialect) => new Kysely<Database>({ dialect: unavailableAwareDialect(dialect, outage.down) });
  if (/^postgres(ql)?:\/\//i.test(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    // The server may end any connection (restart, failover, idle timeout, a pooler, pg_terminate_backend). Without
    // these listeners node-postgres raises an unhandled 'error' event, which ends the process.
    pool.on('error', outage.idleConnectionLost);
    let migrating = false;
    pool.on('connect', (client) => {
      client.on('error', outage.idleConnectionLost);
      endWhenSilent(client, () => (migrating ? undefined : STATEMENT_SILENCE_MS));
      outage.up();
    });
    const kysely = open(new PostgresDialect({ pool }));
    const prepared = preparedRunner(pool, (error) =>
      log?.warn({ reason: outage.reason(error) }, 'prepared statements refused (a pooler?): running them unprepared'),
    );
    const changeMark = postgresChangeMark(pool);
    const run: FixedRunner = <Row>(statement: FixedStatement, parameters: readonly unknown[]) =>
      prepared<Row>(statement, parameters).catch((error: unknown) => rethrowUnavailable(error, outage.down));
    useFixedRunner(kysely, run);
    return {
      kysely,
      dialect: 'postgres',
      // The migrators take advisory locks themselves; the flag lets their long statements run untimed.
      exclusively: async (work) => {
        migrating = true;
        try {
          return await work();
        } finally {
          migrating = false;
        }
      },
      run,
      changeMark: () => changeMark().catch((error: unknown) => rethrowUnavailable(error, outage.down)),
      storageFailure: outage.storageFailure,
      close: () => kysely.destroy(),
    };
  }
  const file = sqliteFileOf(url) ?? url;
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // Switching a new file to WAL takes a lock that SQLite does not wait for ('database is locked' at once), so two
  // processes opening one new file together take turns through the side lock.
  if (file === ':memory:') sqlite.pragma('journal_mode = WAL');
  else {
    const release = takeFileLock(`${file}.lock`);
    try {
      sqlite.pragma('journal_mode = WAL');
    } finally {
      release();
    }
  }
  // NORMAL in WAL mode survives a crash of the process (SIGKILL); only an OS crash can roll back the last commit.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_ATTEMPT_MS}`);
  // Kysely prepares every query afresh; the cache compiles each distinct SQL text once (statement-cache.ts).
  const statements = new StatementCache(sqlite);
  const kysely = open(new ImmediateSqliteDialect({ database: statements }, sqlite));
  const exclusively = <T>(work: () => Promise<T>) =>
    file === ':memory:' ? work() : withFileLock(`${file}.lock`, work);
  const run: FixedRunner = async <Row>(statement: FixedStatement, parameters: readonly unknown[]) => {
    // A transaction under way holds the one connection: through Kysely, the statement waits until it has ended
    // instead of becoming part of it.
    if (sqlite.inTransaction) {
      return (await kysely.executeQuery<Row>(CompiledQuery.raw(statement.sql.sqlite, [...parameters]))).rows;
    }
    const once = () => runCompiled<Row>(statements.prepare(statement.sql.sqlite), parameters);
    try {
      // At once; only while another process holds the write lock are the attempts spread out.
      return once();
    } catch (error) {
      if (!isBusy(error)) return rethrowUnavailable(error, outage.down);
    }
    try {
      return await retryWhileBusy(async () => once());
    } catch (error) {
      return rethrowUnavailable(error, outage.down);
    }
  };
  useFixedRunner(kysely, run);
  let checkMark: SQLite.Statement | undefined;
  return {
    kysely,
    dialect: 'sqlite',
    exclusively,
    run,
    changeMark: () => {
      if (sqlite.inTransaction) return run<{ n: number }>(CHECK_MARK, []).then((rows) => String(rows[0]!.n));
      // Prepared when first asked for: the table exists only once the migrations have run.
      checkMark ??= sqlite.prepare(CHECK_MARK.sql.sqlite).pluck();
      return String(checkMark.get());
    },
    storageFailure: outage.storageFailure,
    close: () => kysely.destroy(),
  };
}

/**
 * Transactions on SQLite take the write lock when they begin, waiting for it under busy_timeout. A deferred one
 * (Kysely's `begin`) that reads first fails at once with SQLITE_BUSY_SNAPSHOT when another process wrote in between,
 * as SQLite cannot let it write on an old snapshot. Within one process the single connection runs one at a time anyway.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #sqlite: SQLite.Database;

  constructor(config: ConstructorParameters<typeof SqliteDialect>[0], sqlite: SQLite.Database) {
    super(config);
    this.#sqlite = sqlite;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const sqlite = this.#sqlite;
    const acquire = driver.acquireConnection.bind(driver);
    // SQLite's driver hands out its one connection again and again: it is wrapped the first time only.
    const wrapped = new WeakSet<object>();
    driver.acquireConnection = async () => {
      const connection = await acquire();
      if (wrapped.has(connection)) return connection;
      wrapped.add(connection);
      const execute = connection.executeQuery.bind(connection);
      // A statement that takes the write lock itself (outside a transaction, or the transaction's `begin`) may be
      // tried again while another process holds the lock; one inside a transaction already holds it.
      connection.executeQuery = (query) =>
        sqlite.inTransaction ? execute(query) : retryWhileBusy(() => execute(query));
      return connection;
    };
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    // A write that fails for lack of room (SQLITE_FULL) or an I/O error rolls the transaction back by itself; a
    // rollback after it would fail with 'cannot rollback - no transaction is active' and hide the real cause.
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (sqlite.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

/** Runs a compiled SQLite statement at once: its rows when it returns any, otherwise none. */
function runCompiled<Row>(statement: SqliteStatement, parameters: readonly unknown[]): Row[] {
  const compiled = statement as SQLite.Statement;
  if (compiled.reader) return compiled.all(...parameters) as Row[];
  compiled.run(...parameters);
  return [];
}

const isBusy = (error: unknown) => (error as { code?: unknown })?.code === 'SQLITE_BUSY';

/**
 * Runs `attempt` again while SQLite answers that another process holds the write lock, waiting between attempts
 * without blocking the event loop, up to WRITE_WAIT_MS; then the last SQLITE_BUSY goes on (a 503 with Retry-After).
 * Health checks and requests that need no database answer meanwhile (docs/operations.md).
 */
async function retryWhileBusy<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WRITE_WAIT_MS;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

// SQLite's own locking serves as a lock between processes: an exclusive transaction on a small side file.
async function withFileLock<T>(lockFile: string, work: () => Promise<T>): Promise<T> {
  const release = takeFileLock(lockFile);
  try {
    return await work();
  } finally {
    release();
  }
}

function takeFileLock(lockFile: string): () => void {
  const lock = new SQLite(lockFile);
  try {
    lock.pragma('busy_timeout = 60000');
    lock.exec('begin exclusive');
  } catch (error) {
    lock.close();
    throw error;
  }
  return () => {
    try {
      lock.exec('rollback');
    } finally {
      lock.close();
    }
  };
}

/**
 * Ends a pooled connection whose statement has gone unanswered for `limit()` ms: its socket is destroyed, so the
 * statement fails as a lost connection (503 with Retry-After), and the pool, finding the client no longer queryable
 * when it is given back, makes a new connection for the next request (docs/operations.md#database-outages). Covers
 * both ways node-postgres is called: with a callback (the pool's `query`) and for a promise (Kysely).
 */
function endWhenSilent(client: pg.PoolClient, limit: () => number | undefined): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const socket = (client as unknown as { connection: { stream: { destroy(error?: Error): void } } }).connection.stream;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const ms = limit();
    if (ms === undefined) return query(...args);
    // The query under way fails with this very error (node-postgres hands the socket's error to it): an outage, 503.
    const timer = setTimeout(
      () => socket.destroy(new DatabaseUnavailableError(new Error('the database did not answer in time'))),
      ms,
    );
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        clearTimeout(timer);
        callback(...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) return result.finally(() => clearTimeout(timer));
    clearTimeout(timer);
    return result;
  };
}

/** The file of a SQLite database URL (a path, `sqlite:` or `file:`); undefined for PostgreSQL. */
export function sqliteFileOf(url: string): string | undefined {
  if (/^postgres(ql)?:\/\//i.test(url)) return undefined;
  return url.replace(/^sqlite:(\/\/)?/i, '').replace(/^file:(\/\/)?/i, '');
}

function outageLog(log: DatabaseLog | undefined) {
  let downSince: number | undefined;
  let storage: { at: number; reason: string } | undefined;
  let lastWarning = 0;
  let lastLostConnection = 0;
  const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
  return {
    reason,
    down(error: unknown) {
      const now = Date.now();
      downSince ??= now;
      const full = isStorageFailure(error);
      if (full) storage = { at: now, reason: reason(error) };
      if (now - lastWarning < WARN_EVERY_MS) return;
      lastWarning = now;
      if (full) log?.warn({ reason: reason(error) }, 'storage full or failing: writes answer 503 until there is room');
      else log?.warn({ reason: reason(error) }, 'database unavailable: answering 503 until it is back');
    },
    storageFailure: () => (storage && Date.now() - storage.at < STORAGE_FAILURE_MS ? storage.reason : undefined),
    up() {
      if (downSince === undefined) return;
      log?.info({ unavailableMs: Date.now() - downSince }, 'database reachable again');
      downSince = undefined;
      lastWarning = 0;
    },
    idleConnectionLost(error: unknown) {
      const now = Date.now();
      if (now - lastLostConnection < WARN_EVERY_MS) return;
      lastLostConnection = now;
      log?.warn({ reason: reason(error) }, 'database connection closed by the server; the pool replaces it');
    },
  };
}
