// The integration files that run once more on PostgreSQL (scripts/integration.mjs). Every file runs on SQLite; the
// wire contract does not depend on the database, the statements do. So PostgreSQL gets the files whose subject is the
// database, the ones that send it bad input, and enough others that between them every statement the portal sends
// to PostgreSQL runs there: `node scripts/postgresql-statements.mjs` runs every file on PostgreSQL, names each
// statement these do not send and the files that do, and fails while there is one. Run it after changing a query.
// docs/architecture.md#how-it-is-tested.

/** Where the database itself is the subject: outages, failover, shared starts, several processes, its own SQL. */
const DATABASE = [
  'e2e/api/database-outage.test.ts',
  'e2e/api/database-silent-failover.test.ts',
  'e2e/api/shared-database-start.test.ts',
  'e2e/api/two-processes-revocation.test.ts',
  'e2e/api/programme-processes.test.ts',
  'e2e/api/kratos-import.test.ts',
  'e2e/api/users-api-paging.test.ts',
  'packages/idp/src/sessions/session-lookup.integration.test.ts',
  'packages/users-api/src/db/check-marks.integration.test.ts',
];

/** Bad input against PostgreSQL's types: NUL bytes, long and odd text, generated bodies. */
const INPUT = ['e2e/api/fuzz.test.ts', 'e2e/api/attacks-input.test.ts'];

/** With the above, every other statement (measured on 2 December 2026: 312 distinct statements, 26 files). */
const STATEMENTS = [
  'e2e/api/users-api-programme.test.ts',
  'e2e/api/users-api-import.test.ts',
  'e2e/api/users-api-access-review.test.ts',
  'e2e/api/keto.test.ts',
  'e2e/api/attacks-page-tokens.test.ts',
  'e2e/api/settings-verification.test.ts',
  'e2e/api/admin-identities.test.ts',
  'e2e/api/ui-locations.test.ts',
  'e2e/api/admin-token.test.ts',
  'e2e/api/passkeys.test.ts',
  'e2e/api/users-api-organisations.test.ts',
  'e2e/api/courier.test.ts',
  'e2e/api/registration-logout.test.ts',
  'e2e/api/users-api-admin.test.ts',
  'e2e/api/oidc-session-rules.test.ts',
  'e2e/api/credential-secrets.test.ts',
  'e2e/api/kratos-round-trip.test.ts',
];

export const POSTGRESQL_FILES = [...DATABASE, ...INPUT, ...STATEMENTS];

/** Statements the tests send themselves to read what a request left behind: not the portal's. */
export const TEST_STATEMENTS = [/json_agg/, /^select \* from sessions$/, /^select config from identity_credentials /];
