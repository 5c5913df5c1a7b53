import { Migrator, type Kysely, type Migration } from 'kysely';
import * as catalogueAndAudit from './migrations/0001_catalogue_and_audit.js';
import * as organisationInvitations from './migrations/0002_organisation_invitations.js';
import * as catalogueOidcClients from './migrations/0003_catalogue_oidc_clients.js';
import * as oidcProviderState from './migrations/0004_oidc_provider_state.js';
import * as oidcSessionLinks from './migrations/0005_oidc_session_links.js';
import * as mailThrottle from './migrations/0006_mail_throttle.js';
import * as oidcKeyAnnouncements from './migrations/0007_oidc_key_announcements.js';
import * as peopleChanges from './migrations/0008_people_changes.js';
import * as lastSignIns from './migrations/0009_last_sign_ins.js';
import * as peopleChangeLog from './migrations/0010_people_change_log.js';
import * as peopleStatusChanges from './migrations/0011_people_status_changes.js';
import * as accessReviews from './migrations/0012_access_reviews.js';
import * as peopleImports from './migrations/0013_people_imports.js';
import * as programmeServices from './migrations/0014_programme_services.js';
import * as organisationActive from './migrations/0015_organisation_active.js';
import * as checkMarks from './migrations/0016_check_marks.js';

const migrations: Record<string, Migration> = {
  '0001_catalogue_and_audit': catalogueAndAudit,
  '0002_organisation_invitations': organisationInvitations,
  '0003_catalogue_oidc_clients': catalogueOidcClients,
  '0004_oidc_provider_state': oidcProviderState,
  '0005_oidc_session_links': oidcSessionLinks,
  '0006_mail_throttle': mailThrottle,
  '0007_oidc_key_announcements': oidcKeyAnnouncements,
  '0008_people_changes': peopleChanges,
  '0009_last_sign_ins': lastSignIns,
  '0010_people_change_log': peopleChangeLog,
  '0011_people_status_changes': peopleStatusChanges,
  '0012_access_reviews': accessReviews,
  '0013_people_imports': peopleImports,
  '0014_programme_services': programmeServices,
  '0015_organisation_active': organisationActive,
  '0016_check_marks': checkMarks,
};

/** Applies the Users API's migrations (catalogue, audit log, invitations, OpenID Connect), in their own table. */
export async function migrateUsersApi<DB>(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'users_api_migrations',
    migrationLockTableName: 'users_api_migrations_lock',
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
