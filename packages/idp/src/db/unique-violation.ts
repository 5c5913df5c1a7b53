/** True for a unique-constraint violation on either engine (SQLite `SQLITE_CONSTRAINT_UNIQUE`, PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
