// Times are ISO-8601 UTC strings (Date#toISOString) on both engines, so they compare as text.
// JSON documents are stored as text.

export interface IdentitiesTable {
  id: string;
  schema_id: string;
  state: 'active' | 'inactive';
  state_changed_at: string | null;
  traits: string;
  metadata_public: string | null;
  metadata_admin: string | null;
  external_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface CredentialsTable {
  id: string;
  identity_id: string;
  type: string;
  config: string;
  version: number;
  /** Optimistic-lock counter for one-time secrets held in `config`. */
  revision: number;
  /** Last accepted TOTP time step, for replay protection. */
  last_used_step: number | null;
  created_at: string;
  updated_at: string;
}

export interface CredentialIdentifiersTable {
  id: string;
  identity_id: string;
  credential_id: string;
  type: string;
  identifier: string;
}

export interface VerifiableAddressesTable {
  id: string;
  identity_id: string;
  value: string;
  via: string;
  verified: number;
  status: string;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RecoveryAddressesTable {
  id: string;
  identity_id: string;
  value: string;
  via: string;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  logout_token_hash: string;
  identity_id: string;
  active: number;
  authentication_methods: string;
  authenticated_at: string;
  issued_at: string;
  expires_at: string;
  last_seen_at: string;
  ip_address: string;
  user_agent: string;
  created_at: string;
  /** The token a renewal replaced, usable until `previous_token_expires_at` (sessions/session-repository.ts). */
  previous_token_hash: string | null;
  previous_token_expires_at: string | null;
}

export interface FlowsTable {
  id: string;
  kind: 'login' | 'registration' | 'recovery' | 'verification' | 'settings';
  type: 'browser' | 'api';
  state: string;
  request_url: string;
  return_to: string | null;
  csrf_token: string;
  active: string | null;
  requested_aal: string | null;
  refresh: number;
  identity_id: string | null;
  session_id: string | null;
  ui: string;
  internal_context: string;
  submit_count: number;
  expires_at: string;
  issued_at: string;
  created_at: string;
  updated_at: string;
}

export interface OneTimeCodesTable {
  id: string;
  flow_id: string | null;
  purpose: 'recovery_code' | 'recovery_link' | 'verification_code' | 'invitation_link';
  code_hash: string;
  identity_id: string | null;
  address: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface CourierMessagesTable {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  template_type: string;
  status: 'queued' | 'sent' | 'failed' | 'abandoned';
  send_count: number;
  last_error: string | null;
  next_attempt_at: string;
  created_at: string;
  updated_at: string;
}

export interface ThrottlesTable {
  key: string;
  failures: number;
  window_started_at: string;
  locked_until: string | null;
  updated_at: string;
}

export interface SelfServiceErrorsTable {
  id: string;
  error: string;
  created_at: string;
}

export interface Database {
  identities: IdentitiesTable;
  identity_credentials: CredentialsTable;
  identity_credential_identifiers: CredentialIdentifiersTable;
  identity_verifiable_addresses: VerifiableAddressesTable;
  identity_recovery_addresses: RecoveryAddressesTable;
  sessions: SessionsTable;
  selfservice_flows: FlowsTable;
  one_time_codes: OneTimeCodesTable;
  courier_messages: CourierMessagesTable;
  throttles: ThrottlesTable;
  selfservice_errors: SelfServiceErrorsTable;
}
