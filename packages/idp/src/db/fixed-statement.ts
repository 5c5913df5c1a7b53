import type { DatabaseDialect } from './database.js';

/**
 * A read of the hot path (the session check of every request) in fixed text per dialect: `?` placeholders on SQLite,
 * `$1`, `$2`, … on PostgreSQL. Fixed text needs no query builder per request and lets each engine compile it once
 * (docs/architecture.md#sqlite-by-default-postgresql-for-scale).
 */
export interface FixedStatement {
  /** Unique among fixed statements: PostgreSQL knows the prepared statement by this name. */
  readonly name: string;
  readonly sql: Readonly<Record<DatabaseDialect, string>>;
}
