import { type ImportedIdentity, isVerifiableHash, validateTraits } from '@portaal/idp';
import type { Catalogue } from '@portaal/users-api';
import type { KetoTuple } from './keto-reader.js';
import type { KratosCredential, KratosIdentity } from './kratos-reader.js';

// How a Kratos identity and a Keto tuple become the portal's (docs/kratos-compatibility.md#moving-from-ory-kratos):
// what moves as it is, what is normalised, and what cannot move, each said in a Dutch line for the report.

/** Go's zero time, which older Kratos releases write for a backup code never used. */
const ZERO_TIME = /^0001-01-01T00:00:00/;

export type MappedIdentity = { identity: ImportedIdentity; notes: string[] } | { refused: string };

/** A password credential the portal can verify, or why it stays behind. */
function passwordOf(credential: KratosCredential): KratosCredential | string {
  const hash = credential.config.hashed_password;
  if (typeof hash !== 'string' || hash === '')
    return 'wachtwoord staat niet in Kratos (migratiehook): kies een nieuw via Wachtwoord vergeten';
  if (!isVerifiableHash(hash)) {
    const kind = /^\$([a-z0-9-]+)\$/.exec(hash)?.[1] ?? /^\{([A-Z0-9]+)\}/.exec(hash)?.[1] ?? 'onbekend';
    return `wachtwoord-hash ${kind} kent het portaal niet: kies een nieuw via Wachtwoord vergeten`;
  }
  return { ...credential, config: { hashed_password: hash } };
}

/** Backup codes with the portal's mark of a used one: `used_at` only when used. */
function lookupOf(credential: KratosCredential): KratosCredential {
  const codes = Array.isArray(credential.config.recovery_codes) ? credential.config.recovery_codes : [];
  const recoveryCodes = codes.map((entry: { code: string; used_at?: string | null }) =>
    entry.used_at && !ZERO_TIME.test(entry.used_at)
      ? { code: entry.code, used_at: entry.used_at }
      : { code: entry.code },
  );
  return { ...credential, config: { recovery_codes: recoveryCodes } };
}

/** The credentials that move, and a note for each that does not. */
function credentialsOf(identity: KratosIdentity): { credentials: KratosCredential[]; notes: string[] } {
  const credentials: KratosCredential[] = [];
  const notes: string[] = [];
  for (const credential of identity.credentials) {
    if (credential.type === 'password') {
      const password = passwordOf(credential);
      if (typeof password === 'string') notes.push(password);
      else credentials.push(password);
    } else if (credential.type === 'lookup_secret') credentials.push(lookupOf(credential));
    else if (['totp', 'webauthn', 'passkey'].includes(credential.type)) credentials.push(credential);
    else if (credential.type === 'oidc' || credential.type === 'saml')
      notes.push(`inloggen via ${credential.type.toUpperCase()} kan niet mee; met een wachtwoord kan het wel`);
    // `code` holds only addresses: the portal mails its codes to the verified address itself.
  }
  return { credentials, notes };
}

/** A Kratos identity as the portal writes it, or why it cannot move. */
export function mapIdentity(identity: KratosIdentity): MappedIdentity {
  const checked = validateTraits(identity.traits);
  if (!checked.traits) {
    const why = checked.errors.map((e) => e.message.text).join(' ');
    return { refused: `de gegevens passen niet in het schema van het portaal: ${why}` };
  }
  if (identity.state !== 'active' && identity.state !== 'inactive')
    return { refused: `onbekende status '${identity.state}'` };
  const { credentials, notes } = credentialsOf(identity);
  return {
    identity: {
      id: identity.id,
      schemaId: identity.schemaId,
      state: identity.state,
      stateChangedAt: identity.stateChangedAt,
      traits: checked.traits,
      metadataPublic: identity.metadataPublic,
      metadataAdmin: identity.metadataAdmin,
      externalId: identity.externalId,
      createdAt: identity.createdAt,
      updatedAt: identity.updatedAt,
      verifiableAddresses: identity.verifiableAddresses,
      recoveryAddresses: identity.recoveryAddresses,
      credentials,
    },
    notes,
  };
}

const RELATIONS: Record<string, string[]> = {
  organizations: ['issuer', 'access', 'admin'],
  subdivisions: ['issuer', 'access'],
  programme: ['admin'],
};

/** A Keto tuple as the portal keeps it, or why it does not move. */
export function mapTuple(
  tuple: KetoTuple,
  catalogue: Catalogue,
  people: ReadonlySet<string>,
): { tuple: { namespace: string; object: string; relation: string; subject_id: string } } | { refused: string } {
  const text = `${tuple.namespace}:${tuple.object}#${tuple.relation}@${tuple.subjectId ?? tuple.subjectSet}`;
  if (!RELATIONS[tuple.namespace]?.includes(tuple.relation))
    return { refused: `${text}: geen relatie van het portaal` };
  if (!tuple.subjectId) return { refused: `${text}: een subject set gebruikt het portaal niet` };
  if (!people.has(tuple.subjectId)) return { refused: `${text}: het subject is geen geïmporteerd account` };
  const known =
    tuple.namespace === 'programme'
      ? tuple.object === 'portaal'
      : tuple.namespace === 'organizations'
        ? catalogue.organisations.some((org) => org.id === tuple.object)
        : catalogue.organisations.some((org) => org.dataRoles.some((role) => `${role.id}_${org.id}` === tuple.object));
  if (!known) return { refused: `${text}: staat niet in de catalogus; laad die eerst` };
  return {
    tuple: { namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, subject_id: tuple.subjectId },
  };
}
