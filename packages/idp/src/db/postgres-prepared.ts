import type { QueryConfig } from 'pg';
import type { FixedStatement } from './fixed-statement.js';

/** What is used of a pg.Pool: `query` takes a connection for one statement and gives it back. */
interface Queryable {
  query(config: QueryConfig): Promise<{ rows: unknown[] }>;
}

// A prepared statement that this server connection does not have (26000), has already (42P05), or whose plan a
// migration made return other columns (0A000: "cached plan must not change result type").
const REFUSED_PREPARED = new Set(['26000', '42P05', '0A000']);

/**
 * Runs fixed statements as named prepared statements, so PostgreSQL parses and plans each once per connection
 * instead of on every request; for the session check that planning cost more than running it. node-postgres
 * remembers per connection which names it prepared, so every connection of the pool prepares a statement on first
 * use, and a connection that replaces a lost one starts afresh. The statements are few and fixed, so what each
 * connection holds is bounded.
 *
 * A pooler between the process and the server that moves a session's statements between server connections
 * (PgBouncer in transaction mode without `max_prepared_statements`) refuses them, and so does a statement whose
 * columns a migration changed under a running process. Then `onRefused` is told once and the statement runs again
 * unnamed, as do all from then on. A refused statement has not run (the server refuses it at parse, bind or plan
 * check, before executing), so running it again is safe for writes too.
 */
export function preparedRunner(pool: Queryable, onRefused: (error: unknown) => void) {
  let named = true;
  return async <Row>(statement: FixedStatement, parameters: readonly unknown[]): Promise<Row[]> => {
    const text = statement.sql.postgres;
    const values = [...parameters];
    if (!named) return (await pool.query({ text, values })).rows as Row[];
    try {
      return (await pool.query({ name: statement.name, text, values })).rows as Row[];
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !REFUSED_PREPARED.has(code)) throw error;
      if (named) onRefused(error);
      named = false;
      return (await pool.query({ text, values })).rows as Row[];
    }
  };
}
