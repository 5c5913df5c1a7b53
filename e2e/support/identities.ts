import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import type { IdentityApi } from '@ory/client';

export const STRONG_PASSWORD = 'Zonnebloem-Kanaal-Fiets-42';

export const uniqueEmail = (prefix = 'gebruiker') => `${prefix}-${randomUUID().slice(0, 8)}@voorbeeldstad.nl`;

/** Creates an identity with a password through the admin API and returns its id and e-mail. */
export async function createPasswordIdentity(
  identities: IdentityApi,
  options: { email?: string; password?: string; first?: string; last?: string } = {},
) {
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

const STEP_SECONDS = 30;
// Time to type a code and have it checked, on a busy machine.
const MARGIN_SECONDS = 8;

/**
 * The TOTP code for `secret`, optionally for a step away from now. A code from a step back is accepted only until the
 * current step ends (the server allows one step of skew), so near that end this waits for the next step first.
 */
export async function totpCode(secret: string, offsetSteps = 0): Promise<string> {
  if (offsetSteps < 0) {
    const left = STEP_SECONDS - ((Date.now() / 1000) % STEP_SECONDS);
    if (left < MARGIN_SECONDS) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
  }
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * STEP_SECONDS });
}
