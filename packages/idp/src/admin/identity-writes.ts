import type { FastifyInstance } from 'fastify';
import jsonPatch from 'fast-json-patch';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { sendJson } from '../http/send-json.js';
import {
  deleteIdentity,
  findIdentity,
  insertIdentity,
  saveCredential,
  updateIdentity,
  type Transaction,
} from '../identities/identity-repository.js';
import { normaliseEmail } from '../identities/identity-schema.js';
import { revokeSessionsOfIdentity } from '../sessions/session-repository.js';
import {
  checkedTraits,
  createIdentityBody,
  parseBody,
  passwordHashOf,
  keysOfImport,
  recoveryCodesOfImport,
  updateIdentityBody,
} from './identity-body.js';
import { adminIdentitiesJson, isUuid } from './identity-reads.js';

const writeAnswer = async (services: IdpServices, id: string) =>
  (await adminIdentitiesJson(services, [id], { credentials: true, includeConfig: [] }))[0];

/**
 * Create, update, patch and delete of identities; each write is one transaction
 * (docs/kratos-compatibility.md#listing-and-writing-identities).
 */
export function registerIdentityWrites(app: FastifyInstance, services: IdpServices): void {
  const { db, clock, config } = services.ctx;

  app.post('/admin/identities', async (request, reply) => {
    const body = parseBody(createIdentityBody, request.body);
    const traits = checkedTraits(body.schema_id, body.traits);
    const hash = await passwordHashOf(services, body.credentials?.password?.config);
    const verified = [...(body.verifiable_addresses ?? [])].some(
      (a) => a.verified === true && normaliseEmail(a.value) === normaliseEmail(traits.email),
    );
    const id = await db.kysely.transaction().execute(async (trx) => {
      const created = await insertIdentity(trx, clock, {
        traits,
        state: body.state,
        metadataPublic: body.metadata_public,
        metadataAdmin: body.metadata_admin,
        externalId: body.external_id,
        addressVerified: verified,
      });
      if (hash)
        await saveCredential(trx, clock, created, 'password', { hashed_password: hash }, [
          normaliseEmail(traits.email),
        ]);
      // An authenticator app and backup codes moved from elsewhere (Kratos v26's credential import).
      const { totp, lookup_secret: lookup } = body.credentials ?? {};
      if (totp) await saveCredential(trx, clock, created, 'totp', { totp_url: totp.config.totp_url }, [created]);
      if (lookup) {
        const recoveryCodes = recoveryCodesOfImport(lookup.config.codes);
        await saveCredential(trx, clock, created, 'lookup_secret', { recovery_codes: recoveryCodes }, [created]);
      }
      // Security keys are found by the address, passkeys by the user handle their authenticators hold.
      const { webauthn, passkey } = body.credentials ?? {};
      if (webauthn)
        await saveCredential(trx, clock, created, 'webauthn', keysOfImport(webauthn.config), [
          normaliseEmail(traits.email),
        ]);
      if (passkey)
        await saveCredential(trx, clock, created, 'passkey', keysOfImport(passkey.config), [
          Buffer.from(passkey.config.user_handle, 'base64').toString('utf8'),
        ]);
      return created;
    });
    void reply.header('Location', new URL(`/admin/identities/${id}`, config.adminUrl).toString());
    return sendJson(reply, 201, await writeAnswer(services, id));
  });

  async function applyUpdate(
    trx: Transaction,
    id: string,
    update: {
      traits: unknown;
      schemaId: string;
      state: 'active' | 'inactive';
      metadataPublic?: unknown;
      metadataAdmin?: unknown;
      hasMetadataPublic: boolean;
      hasMetadataAdmin: boolean;
      externalId?: string;
      passwordHash?: string;
    },
  ) {
    const traits = checkedTraits(update.schemaId, update.traits);
    await updateIdentity(trx, clock, id, {
      traits,
      state: update.state,
      ...(update.hasMetadataPublic ? { metadataPublic: update.metadataPublic ?? null } : {}),
      ...(update.hasMetadataAdmin ? { metadataAdmin: update.metadataAdmin ?? null } : {}),
      ...(update.externalId !== undefined ? { externalId: update.externalId } : {}),
    });
    if (update.passwordHash)
      await saveCredential(trx, clock, id, 'password', { hashed_password: update.passwordHash }, [
        normaliseEmail(traits.email),
      ]);
    // A disabled identity has no live session (ASVS 7.4.2).
    if (update.state === 'inactive') await revokeSessionsOfIdentity(trx, id);
  }

  app.put<{ Params: { id: string } }>('/admin/identities/:id', async (request, reply) => {
    const { id } = request.params;
    if (!isUuid(id) || !(await findIdentity(db.kysely, id))) throw kratosErrors.identityNotFound();
    const body = parseBody(updateIdentityBody, request.body);
    const passwordHash = await passwordHashOf(services, body.credentials?.password?.config);
    const raw = request.body as Record<string, unknown>;
    await db.kysely.transaction().execute((trx) =>
      applyUpdate(trx, id, {
        traits: body.traits,
        schemaId: body.schema_id,
        state: body.state,
        metadataPublic: body.metadata_public,
        metadataAdmin: body.metadata_admin,
        hasMetadataPublic: 'metadata_public' in raw,
        hasMetadataAdmin: 'metadata_admin' in raw,
        externalId: body.external_id,
        passwordHash,
      }),
    );
    return sendJson(reply, 200, await writeAnswer(services, id));
  });

  app.patch<{ Params: { id: string } }>('/admin/identities/:id', async (request, reply) => {
    const { id } = request.params;
    if (!isUuid(id)) throw kratosErrors.identityNotFound();
    const current = await writeAnswer(services, id);
    if (!current) throw kratosErrors.identityNotFound();
    const operations = request.body;
    if (!Array.isArray(operations) || operations.length > 100) throw kratosErrors.jsonPatchFailed();
    for (const op of operations as { path?: unknown; from?: unknown }[]) {
      const paths = [op?.path, op?.from].filter((p): p is string => typeof p === 'string');
      if (
        paths.some(
          (p) =>
            p === '/id' ||
            p === '/state_changed_at' ||
            p === '/credentials' ||
            p.startsWith('/credentials/oidc') ||
            p.startsWith('/credentials/saml'),
        )
      ) {
        throw kratosErrors.badRequest(`patch path ${paths.join(', ')} is not allowed`);
      }
    }
    let patched: Record<string, unknown>;
    try {
      patched = jsonPatch.applyPatch(
        structuredClone(current),
        operations as jsonPatch.Operation[],
        true,
        false,
      ).newDocument;
    } catch {
      throw kratosErrors.jsonPatchFailed();
    }
    const state = patched.state;
    if (state !== 'active' && state !== 'inactive')
      throw kratosErrors.badRequest('The identity state must be active or inactive.');
    await db.kysely.transaction().execute((trx) =>
      applyUpdate(trx, id, {
        traits: patched.traits,
        schemaId: String(patched.schema_id),
        state,
        metadataPublic: patched.metadata_public,
        metadataAdmin: patched.metadata_admin,
        hasMetadataPublic: true,
        hasMetadataAdmin: true,
        externalId: typeof patched.external_id === 'string' ? patched.external_id : undefined,
      }),
    );
    return sendJson(reply, 200, await writeAnswer(services, id));
  });

  app.delete<{ Params: { id: string } }>('/admin/identities/:id', async (request, reply) => {
    const { id } = request.params;
    const deleted =
      isUuid(id) && (await db.kysely.transaction().execute((trx) => deleteIdentity(trx, id.toLowerCase())));
    if (!deleted) throw kratosErrors.identityNotFound();
    return reply.code(204).send();
  });
}
