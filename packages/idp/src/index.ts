export type { IdpConfig, UiScreen } from './config.js';
export { UI_PATHS } from './config.js';
export type { IdpContext } from './context.js';
export type { AuthEvent, AuthEventListener } from './events.js';
export { systemClock, type Clock } from './clock.js';
export { openDatabase, sqliteFileOf, type Db, type DatabaseDialect } from './db/database.js';
export { allColumns, fixedInsert, fixedStatement, runFixed, type FixedStatement } from './db/fixed-statement.js';
export { BackupError, backupSqlite, restoreSqlite } from './db/sqlite-backup.js';
export { migrateToLatest } from './db/migrate.js';
export { markChecksOn, unmarkChecksOn, type MarkedWrites } from './db/check-marks.js';
export { HttpError } from './errors/herodot.js';
export { IdentityConflictError, IdentityNotFoundError } from './identities/identity-errors.js';
export { kratosErrors } from './errors/kratos-errors.js';
export { parseDuration } from './duration.js';
export { createIdentityProvider, type IdentityProvider } from './provider.js';
export type { EarlyAnswer, EarlyAnswerer } from './sessions/whoami-before-routing.js';
export { KeptAnswers, presentedCredentials, unchangedUntil } from './sessions/kept-answers.js';
export { createIdentityWithPassword } from './identities/create-identity.js';
export { importIdentity, type ImportedIdentity } from './identities/identity-import.js';
export { isVerifiableHash } from './credentials/password/imported-hashes.js';
export { OWASP_ARGON2, weakerThanOwasp, type Argon2Cost } from './credentials/password/password-hasher.js';
export { personalDataOf } from './identities/personal-data.js';
export { findIdentityIdByIdentifier } from './identities/identity-repository.js';

// The embedded provider's internals that the in-process Users API adapter builds on: the Users API reaches the
// identity provider through its own port, and this is the in-process side of that port
// (docs/architecture.md#ports-between-the-users-api-and-the-engines).
export type { IdpServices } from './services.js';
export { authenticate, authenticateHeaders, type Authenticated } from './sessions/authenticate.js';
export { sessionAal, type Aal } from './sessions/aal.js';
export { revokeSessionsOfIdentity } from './sessions/session-repository.js';
export { endSession, liveSessionIds } from './sessions/live-sessions.js';
export { CredentialKeyError, useCredentialKeys } from './credentials/credential-cipher.js';
export { resealCredentials } from './credentials/reseal-credentials.js';
export { accountLocks, unlockAccount } from './throttle/account-lock.js';
export { clientAddressKey } from './throttle/failure-throttle.js';
export {
  deleteCredential,
  deleteIdentity,
  findCredentialsOf,
  findIdentities,
  findIdentity,
  findIdentityIdByAddress,
  insertIdentity,
  updateIdentity,
  type CredentialRecord,
  type DbExecutor,
  type IdentityRecord,
  type Transaction,
} from './identities/identity-repository.js';
export { normaliseEmail, validateTraits } from './identities/identity-schema.js';
export { hasHiddenCharacters } from './identities/hidden-characters.js';
export { countMailsByStatus, enqueueMail, listMails, retryAbandonedMails, type MailStatus } from './courier/index.js';
export { createRecoveryLink } from './flows/recovery/admin-recovery.js';
export { removeSecurityKeys } from './credentials/webauthn/security-keys.js';
