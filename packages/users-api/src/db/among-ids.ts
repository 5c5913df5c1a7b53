import type { DatabaseDialect } from '@portaal/idp';
import { sql } from 'kysely';

/**
 * `column` is one of `ids`. Lists of a whole organisation, ten thousand people and more, are read with one parameter
 * holding every id, so each statement runs once whatever the size
 * (docs/architecture.md#how-a-users-api-request-travels).
 */
export function amongIds(dialect: DatabaseDialect, column: string, ids: string[]) {
  return dialect === 'postgres'
    ? sql<boolean>`${sql.ref(column)} = any(${ids}::varchar[])`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`;
}
