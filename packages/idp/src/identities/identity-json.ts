import type { CredentialRecord, IdentityRecord } from './identity-repository.js';

export interface IdentityJsonOptions {
  publicUrl: URL;
  /** Admin answers carry `metadata_admin`; public ones (whoami, settings) never do. */
  admin?: boolean;
  /** Credentials to embed; their `config` only for the types in `includeConfig`. */
  credentials?: CredentialRecord[];
  includeConfig?: string[];
}

/** An identity as Kratos serialises it (docs/kratos-compatibility.md#identity-json). */
export function identityJson(identity: IdentityRecord, options: IdentityJsonOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: identity.id,
    schema_id: identity.schemaId,
    schema_url: new URL(
      `/schemas/${Buffer.from(identity.schemaId).toString('base64url')}`,
      options.publicUrl,
    ).toString(),
    state: identity.state,
  };
  if (identity.stateChangedAt) body.state_changed_at = identity.stateChangedAt;
  body.traits = identity.traits;
  if (identity.verifiableAddresses.length > 0) {
    body.verifiable_addresses = identity.verifiableAddresses.map((a) => ({
      id: a.id,
      value: a.value,
      verified: a.verified,
      via: a.via,
      status: a.status,
      ...(a.verifiedAt ? { verified_at: a.verifiedAt } : {}),
      created_at: a.createdAt,
      updated_at: a.updatedAt,
    }));
  }
  if (identity.recoveryAddresses.length > 0) {
    body.recovery_addresses = identity.recoveryAddresses.map((a) => ({
      id: a.id,
      value: a.value,
      via: a.via,
      created_at: a.createdAt,
      updated_at: a.updatedAt,
    }));
  }
  body.metadata_public = identity.metadataPublic ?? null;
  if (options.admin) body.metadata_admin = identity.metadataAdmin ?? null;
  if (options.credentials) {
    body.credentials = Object.fromEntries(
      options.credentials.map((c) => [c.type, credentialJson(c, options.includeConfig?.includes(c.type) === true)]),
    );
  }
  body.created_at = identity.createdAt;
  body.updated_at = identity.updatedAt;
  body.organization_id = null;
  if (identity.externalId) body.external_id = identity.externalId;
  return body;
}

function credentialJson(credential: CredentialRecord, withConfig: boolean): Record<string, unknown> {
  return {
    type: credential.type,
    identifiers: credential.identifiers,
    ...(withConfig ? { config: credential.config } : {}),
    version: credential.version,
    created_at: credential.createdAt,
    updated_at: credential.updatedAt,
  };
}
