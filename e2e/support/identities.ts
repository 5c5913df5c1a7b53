import { randomUUID } from 'node:crypto';
import { generate, generateSecret } from 'otplib';
import type { IdentityApi } from '@ory/client';

export const STRONG_PASSWORD = 'Zonnebloem-Kanaal-Fiets-42';

export const uniqueEmail = (prefix = 'gebruiker') => `${prefix}-${randomUUID().slice(0, 8)}@voorbeeldstad.nl`;

/** Creates an identity with a password through the admin API and returns its id and e-mail. */
export async function createPasswordIdentity(identities: IdentityApi, options: { email?: string; password?: string; first?: string; last?: string } = {}) {
  const email = options.email ?? uniqueEmail();
  const { data } = await identities.createIdentity({
    createIdentityBody: {
      schema_id: 'default',
      traits: { email, name: { first: options.first ?? 'Test', last: options.last ?? 'Gebruiker' } },
      credentials: { password: { config: { password: options.password ?? STRONG_PASSWORD } } },
    },
  });
  return { id: data.id, email, password: options.password ?? STRONG_PASSWORD };
}

/** The TOTP code for `secret`, optionally for a step away from now. */
export async function totpCode(secret: string, offsetSteps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
}

export { generateSecret };
