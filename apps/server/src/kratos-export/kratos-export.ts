import { copyFile, mkdir, open, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CredentialRecord, findCredentialsOf, findIdentities, type IdentityRecord } from '@portaal/idp';
import type { Product } from '../product.js';

// `portaal export kratos`: the portal's people in the body Ory Kratos v26's `POST /admin/identities` takes, with
// their credentials as Kratos stores them, and the tuples in Keto's format (README 'Moving to Ory Kratos').

const PAGE = 500;
/** deploy/ory of the repository, beside the built server (apps/server/dist/kratos-export). */
const ORY_DEPLOYMENT = fileURLToPath(new URL('../../../../deploy/ory/', import.meta.url));

/** A credential as Kratos v26's identity import takes it, or nothing for one it does not. */
function importedCredential(credential: CredentialRecord): [string, { config: Record<string, unknown> }] | undefined {
  const { type, config } = credential;
  if (type === 'password' && typeof config.hashed_password === 'string')
    return [type, { config: { hashed_password: config.hashed_password } }];
  if (type === 'totp' && typeof config.totp_url === 'string') return [type, { config: { totp_url: config.totp_url } }];
  if (type === 'lookup_secret' && Array.isArray(config.recovery_codes))
    return [type, { config: { codes: config.recovery_codes } }];
  if ((type === 'webauthn' || type === 'passkey') && Array.isArray(config.credentials))
    return [type, { config: { credentials: config.credentials, user_handle: config.user_handle } }];
  return undefined;
}

/** An identity as the body of Kratos' `POST /admin/identities`. */
function identityBody(identity: IdentityRecord, credentials: CredentialRecord[]): Record<string, unknown> {
  return {
    schema_id: identity.schemaId,
    traits: identity.traits,
    state: identity.state,
    metadata_public: identity.metadataPublic ?? null,
    metadata_admin: identity.metadataAdmin ?? null,
    ...(identity.externalId ? { external_id: identity.externalId } : {}),
    verifiable_addresses: identity.verifiableAddresses.map((a) => ({
      value: a.value,
      verified: a.verified,
      via: a.via,
      status: a.status,
    })),
    recovery_addresses: identity.recoveryAddresses.map((a) => ({ value: a.value, via: a.via })),
    credentials: Object.fromEntries(
      credentials.flatMap((c) => {
        const entry = importedCredential(c);
        return entry ? [entry] : [];
      }),
    ),
  };
}

/**
 * Writes `dir/identities.jsonl` (a line `{"id", "identity"}` per person, `identity` the import body), `dir/relation-
 * tuples.json` (Keto's list) and the Kratos and Keto configuration of deploy/ory when the repository is at hand.
 */
export async function exportKratos(product: Product, dir: string) {
  await mkdir(dir, { recursive: true });
  const db = product.db.kysely;
  const out = await open(path.join(dir, 'identities.jsonl'), 'w', 0o600);
  let identities = 0;
  try {
    for (let after = ''; ; ) {
      const ids = (
        await db.selectFrom('identities').select('id').where('id', '>', after).orderBy('id').limit(PAGE).execute()
      ).map((row) => row.id);
      if (ids.length === 0) break;
      after = ids[ids.length - 1]!;
      const [people, credentials] = await Promise.all([findIdentities(db, ids), findCredentialsOf(db, ids)]);
      const lines = people.map((person) =>
        JSON.stringify({ id: person.id, identity: identityBody(person, credentials.get(person.id) ?? []) }),
      );
      await out.write(`${lines.join('\n')}\n`);
      identities += people.length;
    }
  } finally {
    await out.close();
  }
  const tuples = await product.relations.list({});
  const relationTuples = tuples.map((t) => ({
    namespace: t.namespace,
    object: t.object,
    relation: t.relation,
    ...(t.subject_id ? { subject_id: t.subject_id } : { subject_set: t.subject_set }),
  }));
  await writeFile(
    path.join(dir, 'relation-tuples.json'),
    `${JSON.stringify({ relation_tuples: relationTuples }, null, 2)}\n`,
  );
  const configuration: string[] = [];
  if (existsSync(ORY_DEPLOYMENT)) {
    for (const name of await readdir(ORY_DEPLOYMENT)) {
      if (!/\.(yml|json|ts|jsonnet)$/.test(name) || name.endsWith('.test.ts')) continue;
      await copyFile(path.join(ORY_DEPLOYMENT, name), path.join(dir, name));
      configuration.push(name);
    }
  }
  return { identities, tuples: relationTuples.length, configuration };
}
