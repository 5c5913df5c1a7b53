import type { FastifyInstance } from 'fastify';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { deleteCredential, findCredential, findIdentity } from '../identities/identity-repository.js';
import { removeSecurityKeys } from '../credentials/webauthn/security-keys.js';
import { revokeSessionsOfIdentity } from '../sessions/session-repository.js';
import { isUuid } from './identity-reads.js';

const KNOWN_TYPES = new Set([
  'password',
  'oidc',
  'totp',
  'lookup_secret',
  'webauthn',
  'code',
  'passkey',
  'saml',
  'deviceauthn',
]);
const FIRST_FACTOR = new Set(['password', 'code']);

/** `DELETE /admin/identities/{id}/credentials/{type}` (docs/kratos-compatibility.md#deleting-credentials). */
export function registerCredentialRoutes(app: FastifyInstance, services: IdpServices): void {
  const { db, clock } = services.ctx;

  app.delete<{ Params: { id: string; type: string } }>(
    '/admin/identities/:id/credentials/:type',
    async (request, reply) => {
      const { id, type } = request.params;
      if (!isUuid(id)) throw kratosErrors.identityNotFound();
      if (!KNOWN_TYPES.has(type)) throw kratosErrors.badRequest(`The credential type "${type}" is not supported.`);
      if (FIRST_FACTOR.has(type)) {
        throw kratosErrors.badRequest(`You cannot remove first factor credentials (${type}) through this API.`);
      }
      const identityId = id.toLowerCase();
      if (!(await findIdentity(db.kysely, identityId))) throw kratosErrors.identityNotFound();
      if (type === 'passkey') {
        if (!(await findCredential(db.kysely, identityId, type))) throw kratosErrors.credentialNotFound();
        throw kratosErrors.badRequest('Credentials type passkey cannot be deleted.');
      }
      await db.kysely.transaction().execute(async (trx) => {
        const removed =
          type === 'webauthn'
            ? await removeSecurityKeys(trx, clock, identityId)
            : await deleteCredential(trx, clock, identityId, type);
        // Thrown inside the transaction, so that a refusal writes nothing.
        if (!removed) throw kratosErrors.credentialNotFound();
        // Sessions that were raised to aal2 with the removed factor must not outlive it.
        await revokeSessionsOfIdentity(trx, identityId);
      });
      return reply.code(204).send();
    },
  );
}
