import type { DatabaseConnection, Dialect, Driver } from 'kysely';

/**
 * The database cannot be reached or is too busy right now: the server answers 503 (Retry-After) instead of 500, and
 * the error handlers of every package recognise it by its status code alone.
 */
export class DatabaseUnavailableError extends Error {
  readonly statusCode = 503;
  readonly code = 'DATABASE_UNAVAILABLE';

  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

// PostgreSQL SQLSTATE classes and codes that mean "no usable connection now" or "no room to write" (53100, disk
// full), not a fault of the query.
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53100', '53300', '53400']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENOSPC',
]);
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT']);
// node-postgres reports a lost or never-made connection by message only.
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];

/**
 * Whether the error says the storage under the database is full or failing (SQLite's SQLITE_FULL and I/O errors,
 * PostgreSQL's disk_full, the file system's ENOSPC): writes cannot succeed until space is freed or the disk repaired.
 */
export function isStorageFailure(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code === '53100' || code === 'ENOSPC';
}

/** Whether an error from a database driver means the database is out of reach rather than the query is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') && code.length === 5) return true;
    if (POSTGRES_CODES.has(code) || NETWORK_CODES.has(code) || SQLITE_CODES.has(code)) return true;
    if (isStorageFailure(error)) return true;
  }
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** Rethrows a database error, as DatabaseUnavailableError (after telling `onUnavailable`) when it is one of those. */
export function rethrowUnavailable(error: unknown, onUnavailable: (error: unknown) => void): never {
  if (!isDatabaseUnavailable(error)) throw error;
  onUnavailable(error);
  throw error instanceof DatabaseUnavailableError ? error : new DatabaseUnavailableError(error);
}

/**
 * Wraps a Kysely dialect so that every query, transaction statement and connection attempt that fails for lack of
 * a database throws DatabaseUnavailableError, after telling `onUnavailable`. Other errors pass unchanged.
 */
export function unavailableAwareDialect(inner: Dialect, onUnavailable: (error: unknown) => void): Dialect {
  const translate = (error: unknown): never => rethrowUnavailable(error, onUnavailable);
  // One wrapper per connection, made when it is first acquired: every query passes here, so nothing is allocated
  // per query but the promise itself.
  const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const wrapConnection = (connection: DatabaseConnection): DatabaseConnection => {
    const known = wrapped.get(connection);
    if (known) return known;
    // SQLite's connection throws synchronously, PostgreSQL's rejects: one try covers both.
    const executeQuery = async (query: Parameters<DatabaseConnection['executeQuery']>[0]) => {
      try {
        return await connection.executeQuery(query);
      } catch (error) {
        return translate(error);
      }
    };
    const proxy = new Proxy(connection, {
      get(target, property) {
        if (property === 'executeQuery') return executeQuery;
        const value = Reflect.get(target, property, target);
        // Drivers keep private state on the connection; their methods must run on the real object.
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    wrapped.set(connection, proxy);
    return proxy;
  };
  const wrapDriver = (driver: Driver): Driver =>
    new Proxy(driver, {
      get(target, property) {
        if (property === 'acquireConnection') {
          return () => target.acquireConnection().then(wrapConnection, translate);
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return {
    createDriver: () => wrapDriver(inner.createDriver()),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}
