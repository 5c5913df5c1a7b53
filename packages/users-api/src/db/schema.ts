export interface CatalogueOrganisationsTable {
  id: string;
  label: string;
  requires_aal2: number;
  position: number;
  /** 0 once deactivated in 'Programmabeheer': its members and data roles admit nobody to a data service. */
  active: number;
}

export interface CatalogueDataRolesTable {
  organisation_id: string;
  role_id: string;
  label: string;
  position: number;
}

export interface CatalogueServicesTable {
  id: string;
  name: string;
  description: string;
  url: string;
  position: number;
  /** 1 when the service is reached through forward authentication (`GET /api/forward-auth`), 0 when not. */
  forward_auth: number;
}

export interface OidcClientSecretsTable {
  client_id: string;
  /** SHA-256 (hex) of the secret the portal generated (oidc/oidc-clients.ts). */
  hash: string;
  created_at: string;
  /** Until when a rotated secret stays valid; null while it is the newest. */
  expires_at: string | null;
}

export interface CatalogueServiceAccessTable {
  service_id: string;
  /** 'organisation' (any member) or 'data_role' (object `roleId_orgId`). */
  kind: string;
  object: string;
}

export interface CatalogueOidcClientsTable {
  service_id: string;
  client_id: string;
  /** 'confidential' or 'public'. */
  client_type: string;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  backchannel_logout_uri: string | null;
  initiate_login_uri: string | null;
}

export interface OidcPayloadsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: string | null;
  consumed_at: string | null;
}

export interface AuditLogTable {
  id: string;
  at: string;
  organisation_id: string | null;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  object_id: string | null;
  object_email: string | null;
  result: string;
  client_address: string | null;
  details: string | null;
}

export interface OrganisationInvitationsTable {
  id: string;
  organisation_id: string;
  identity_id: string;
  email: string;
  /** JSON array of the tuples to write on acceptance (without subject). */
  relations: string;
  invited_by_id: string | null;
  invited_by_email: string | null;
  created_at: string;
  expires_at: string;
}

/** Which portal session an OpenID Connect grant was made from (oidc/session-links.ts). */
export interface OidcSessionLinksTable {
  grant_id: string;
  portal_session_id: string;
  client_id: string;
  account_id: string;
  /** The provider's session id for the client, the `sid` of its ID tokens and logout tokens; known once a code is. */
  sid: string | null;
  created_at: string;
  /** Set when the grant was ended with its session, by whichever process got to it first. */
  ended_at: string | null;
}

/** The signing keys a running process publishes, by key id (oidc/signing-key-agreement.ts). */
export interface OidcKeyAnnouncementsTable {
  process_id: string;
  /** The key ids of the process's JWKS, comma-separated. */
  kids: string;
  seen_at: string;
}

/** One row (id 1): how many changes to people, their tuples and invitations were committed (0008_people_changes). */
export interface PeopleChangesTable {
  id: number;
  n: string | number | bigint;
}

/** When a person last signed in (0009_last_sign_ins). */
export interface LastSignInsTable {
  identity_id: string;
  signed_in_at: string;
}

/** A finished access review (0012_access_reviews). */
export interface AccessReviewsTable {
  id: string;
  organisation_id: string;
  reviewed_by_id: string;
  reviewed_by_email: string;
  completed_at: string;
  kept: number;
  withdrawn: number;
}

/** One data role of one person in a finished access review, and the decision (0012_access_reviews). */
export interface AccessReviewItemsTable {
  review_id: string;
  position: number;
  identity_id: string;
  email: string;
  name: string;
  data_role_id: string;
  data_role_label: string;
  last_sign_in_at: string | null;
  factors: string | null;
  decision: string;
}

/** An import of people from a CSV file (0013_people_imports). */
export interface PeopleImportsTable {
  id: string;
  organisation_id: string;
  created_by_id: string;
  created_by_email: string;
  client_address: string;
  file_name: string;
  created_at: string;
  state: string;
  started_at: string | null;
  finished_at: string | null;
  lease_owner: string | null;
  lease_until: number | string | bigint | null;
}

/** One row of an import's file, planned and, once worked on, done (0013_people_imports). */
export interface PeopleImportRowsTable {
  import_id: string;
  line: number;
  email: string;
  first_name: string;
  last_name: string;
  data_roles: string;
  admin: number;
  plan: string;
  reason: string | null;
  outcome: string | null;
  identity_id: string | null;
  mailed: number;
}

export interface UsersApiDatabase {
  catalogue_organisations: CatalogueOrganisationsTable;
  catalogue_data_roles: CatalogueDataRolesTable;
  catalogue_services: CatalogueServicesTable;
  catalogue_service_access: CatalogueServiceAccessTable;
  catalogue_oidc_clients: CatalogueOidcClientsTable;
  oidc_client_secrets: OidcClientSecretsTable;
  oidc_payloads: OidcPayloadsTable;
  oidc_session_links: OidcSessionLinksTable;
  oidc_key_announcements: OidcKeyAnnouncementsTable;
  people_changes: PeopleChangesTable;
  audit_log: AuditLogTable;
  last_sign_ins: LastSignInsTable;
  organisation_invitations: OrganisationInvitationsTable;
  access_reviews: AccessReviewsTable;
  access_review_items: AccessReviewItemsTable;
  people_imports: PeopleImportsTable;
  people_import_rows: PeopleImportRowsTable;
}
