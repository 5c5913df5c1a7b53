import { CompiledQuery, type Kysely, PostgresAdapter } from 'kysely';
import type { DatabaseDialect } from './database.js';

/**
 * A statement of a hot path (the session check of every request, the steps of a sign-in) in fixed text per dialect:
 * `?` placeholders on SQLite, `$1`, `$2`, … on PostgreSQL. Fixed text needs no query builder per request and lets
 * each engine compile it once (docs/architecture.md#fixed-statements-on-the-hot-paths).
 */
export interface FixedStatement {
  /** Unique among fixed statements: PostgreSQL knows the prepared statement by this name. */
  readonly name: string;
  readonly sql: Readonly<Record<DatabaseDialect, string>>;
}

/**
 * A fixed statement written once with SQLite's `?` placeholders; PostgreSQL's text numbers them. The text must hold
 * no `?` but its placeholders (no string literals with one).
 */
export function fixedStatement(name: string, sqlite: string): FixedStatement {
  let position = 0;
  return { name, sql: { sqlite, postgres: sqlite.replace(/\?/g, () => `$${++position}`) } };
}

/** Runs a fixed statement outside any transaction: what `Db.run` does (database.ts). */
export type FixedRunner = <Row>(statement: FixedStatement, parameters: readonly unknown[]) => Promise<Row[]>;

// The database's own runner, by its Kysely instance: a transaction is another instance and is not found here.
const runners = new WeakMap<object, FixedRunner>();

/** Makes `runFixed` on this Kysely instance (not on its transactions) use `runner` (database.ts). */
export function useFixedRunner(kysely: object, runner: FixedRunner): void {
  runners.set(kysely, runner);
}

/**
 * Runs a fixed statement and answers its rows (a write that should tell what it changed says `returning`). On the
 * database itself it runs outside Kysely (database.ts: SQLite's compiled statement at once, PostgreSQL's named
 * prepared statement); inside a transaction it runs on the transaction's connection through Kysely.
 */
export async function runFixed<Row>(
  // biome-ignore lint/suspicious/noExplicitAny: any Kysely instance or transaction, whatever its tables
  db: Kysely<any>,
  statement: FixedStatement,
  parameters: readonly unknown[],
): Promise<Row[]> {
  const runner = runners.get(db);
  if (runner) return runner<Row>(statement, parameters);
  const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
  return (await db.executeQuery<Row>(CompiledQuery.raw(statement.sql[dialect], [...parameters]))).rows;
}

/**
 * The columns of a table in a fixed order, checked to be all of them: a column added to the table's type and
 * missing here does not compile.
 */
export const allColumns =
  <Table>() =>
  <const List extends readonly (keyof Table & string)[]>(
    list: List & (Exclude<keyof Table, List[number]> extends never ? unknown : never),
  ): List =>
    list;

/** An insert of every column of a row: the statement, and a row's values in the statement's order. */
export function fixedInsert<Row>(name: string, table: string, columns: readonly (keyof Row & string)[]) {
  const placeholders = columns.map(() => '?').join(', ');
  return {
    statement: fixedStatement(name, `insert into ${table} (${columns.join(', ')}) values (${placeholders})`),
    values: (row: Row): unknown[] => columns.map((column) => row[column]),
  };
}
