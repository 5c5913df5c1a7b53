import type { IdpServices } from '../services.js';
import { insertIdentity, saveCredential } from './identity-repository.js';
import { normaliseEmail, validateTraits } from './identity-schema.js';
import { kratosErrors } from '../errors/kratos-errors.js';

/**
 * Creates an identity, optionally with a password, in one transaction (CLI bootstrap and demo data).
 * The password policy applies, as it would at registration.
 */
export async function createIdentityWithPassword(
  services: IdpServices,
  input: {
    email: string;
    firstName?: string;
    lastName?: string;
    password?: string;
    verified?: boolean;
    metadataAdmin?: unknown;
  },
): Promise<string> {
  const checked = validateTraits({ email: input.email, name: { first: input.firstName, last: input.lastName } });
  // The messages travel along (with the field they concern) so that a caller can say them in Dutch.
  if (!checked.traits) {
    const messages = checked.errors.map((e) => ({ ...e.message, node: e.node }));
    throw kratosErrors.badRequest(messages.map((m) => m.text).join(' '), { messages });
  }
  const traits = checked.traits;
  let hashed: string | undefined;
  if (input.password !== undefined) {
    const violation = await services.passwordPolicy.validate(input.password, [traits.email]);
    if (violation) throw kratosErrors.badRequest(violation.text, { messages: [{ ...violation, node: 'password' }] });
    hashed = await services.passwords.hash(input.password);
  }
  const { db, clock } = services.ctx;
  return db.kysely.transaction().execute(async (trx) => {
    const id = await insertIdentity(trx, clock, {
      traits,
      addressVerified: input.verified === true,
      metadataAdmin: input.metadataAdmin,
    });
    if (hashed)
      await saveCredential(trx, clock, id, 'password', { hashed_password: hashed }, [normaliseEmail(traits.email)]);
    return id;
  });
}
