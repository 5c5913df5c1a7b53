import type { IdpConfig } from './config.js';

/**
 * The provider's configuration for in-process tests (in-memory database, Fastify inject): the portal's default
 * lifetimes and limits on a made-up public URL. `hashing` narrows the password hasher for tests of its queue.
 */
export function testIdpConfig(hashing = { hashConcurrency: 2, hashQueueLimit: 8 }): IdpConfig {
  const publicUrl = new URL('http://portaal.test');
  return {
    publicUrl,
    adminUrl: new URL('http://admin.portaal.test'),
    allowedReturnUrls: [publicUrl],
    registrationEnabled: false,
    cookieSecret: 'a-cookie-secret-of-at-least-32-characters',
    mail: { smtpUrl: undefined, from: 'test@portaal.test', leaseMs: 60_000 },
    hibpUrl: undefined,
    whoamiRequiredAal: 'highest_available',
    lifespans: {
      flowMs: 3_600_000,
      codeMs: 900_000,
      invitationMs: 259_200_000,
      sessionMs: 86_400_000,
      sessionIdleMs: 1_800_000,
      privilegedSessionMs: 900_000,
    },
    throttling: { maxFailures: 10, lockMs: 900_000, maxFailuresPerAddress: 100 },
    password: { minLength: 8, ...hashing },
    totpIssuer: 'portaal.test',
  };
}
