import { z } from 'zod';
import type { IdpServices } from '../services.js';
import { kratosErrors } from '../errors/kratos-errors.js';
import { validateTraits, type Traits } from '../identities/identity-schema.js';
import { isVerifiableHash } from '../credentials/password/imported-hashes.js';

const passwordConfig = z
  .object({
    password: z.string().min(1).max(1000).optional(),
    hashed_password: z.string().min(1).max(500).optional(),
    use_password_migration_hook: z.boolean().optional(),
  })
  .strict();
// Kratos v26's credential import (`identityWithCredentials`): an authenticator app's key URI, backup codes. The portal
// verifies codes with SHA-1, 6 digits and 30 seconds, as Kratos makes them; another key URI would import a useless app.
const totpConfig = z
  .object({
    totp_url: z
      .string()
      .max(2048)
      .refine(
        (url) => {
          const parsed = URL.canParse(url) ? new URL(url) : undefined;
          const query = parsed?.searchParams;
          return (
            parsed?.protocol === 'otpauth:' &&
            parsed.host === 'totp' &&
            Boolean(query?.get('secret')) &&
            ['SHA1', null].includes(query?.get('algorithm')?.toUpperCase() ?? null) &&
            ['6', null].includes(query?.get('digits') ?? null) &&
            ['30', null].includes(query?.get('period') ?? null)
          );
        },
        { message: 'an otpauth://totp/ URL with a secret, SHA1, 6 digits and a period of 30 seconds' },
      ),
  })
  .strict();
const lookupConfig = z
  .object({
    codes: z
      .array(
        z
          .object({
            code: z.string().min(1).max(64),
            used_at: z.iso.datetime({ offset: true }).nullable().optional(),
          })
          .strict(),
      )
      .min(1)
      .max(100),
  })
  .strict();
// Security keys and passkeys as Kratos stores them (binary values in standard base64, as Go writes `[]byte`).
const base64 = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'standard base64');
const keyConfig = z
  .object({
    credentials: z
      .array(
        z
          .object({
            id: base64.min(1),
            public_key: base64.min(1),
            attestation_type: z.string().max(64).default('none'),
            authenticator: z
              .object({
                aaguid: base64.default('AAAAAAAAAAAAAAAAAAAAAA=='),
                sign_count: z.number().int().min(0).default(0),
                clone_warning: z.boolean().default(false),
              })
              .passthrough()
              .default({ aaguid: 'AAAAAAAAAAAAAAAAAAAAAA==', sign_count: 0, clone_warning: false }),
            display_name: z.string().max(200).default(''),
            added_at: z.iso.datetime({ offset: true }).optional(),
            is_passwordless: z.boolean().default(false),
            flags: z.record(z.string(), z.boolean()).optional(),
            transport: z.array(z.string().max(32)).max(8).optional(),
            attestation: z.unknown().optional(),
          })
          .strict(),
      )
      .min(1)
      .max(20),
    user_handle: base64.min(1),
  })
  .strict();
const importedCredentials = z
  .object({
    password: z.object({ config: passwordConfig }).strict().optional(),
    totp: z.object({ config: totpConfig }).strict().optional(),
    lookup_secret: z.object({ config: lookupConfig }).strict().optional(),
    webauthn: z.object({ config: keyConfig }).strict().optional(),
    passkey: z.object({ config: keyConfig }).strict().optional(),
  })
  .strict();

const address = z
  .object({
    value: z.string().max(320),
    verified: z.boolean().optional(),
    via: z.string().max(16).optional(),
    status: z.string().max(16).optional(),
    id: z.string().optional(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
    verified_at: z.string().optional(),
  })
  .passthrough();

export const createIdentityBody = z
  .object({
    schema_id: z.string().max(64),
    traits: z.record(z.string(), z.unknown()),
    state: z.enum(['active', 'inactive']).optional(),
    credentials: importedCredentials.optional(),
    verifiable_addresses: z.array(address).max(10).optional(),
    recovery_addresses: z.array(address).max(10).optional(),
    metadata_public: z.unknown().optional(),
    metadata_admin: z.unknown().optional(),
    external_id: z.string().max(255).optional(),
    organization_id: z.string().max(64).nullable().optional(),
  })
  .strict();

export const updateIdentityBody = z
  .object({
    schema_id: z.string().max(64),
    traits: z.record(z.string(), z.unknown()),
    state: z.enum(['active', 'inactive']),
    credentials: z
      .object({ password: z.object({ config: passwordConfig }).strict().optional() })
      .strict()
      .optional(),
    metadata_public: z.unknown().optional(),
    metadata_admin: z.unknown().optional(),
    external_id: z.string().max(255).optional(),
  })
  .strict();

/** Parses a body with a zod schema; any problem is a 400 envelope naming the field, never a 500. */
export function parseBody<T>(schema: z.ZodType<T>, raw: unknown): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw kratosErrors.badRequest(`The request body is invalid${where}: ${issue?.message ?? 'malformed'}`);
  }
  return parsed.data;
}

export function checkedTraits(schemaId: string, raw: unknown): Traits {
  if (schemaId !== 'default') throw kratosErrors.badRequest(`Unknown identity schema "${schemaId}".`);
  const result = validateTraits(raw);
  if (!result.traits) {
    const problems = result.errors.map((e) => `${e.node ?? 'traits'}: ${e.message.text}`).join('; ');
    throw kratosErrors.badRequest(`The traits are invalid: ${problems}`);
  }
  return result.traits;
}

/** The hash to store for an admin-supplied password credential, or undefined. */
export async function passwordHashOf(
  services: IdpServices,
  config: z.infer<typeof passwordConfig> | undefined,
): Promise<string | undefined> {
  if (!config) return undefined;
  if (config.hashed_password) {
    if (!isVerifiableHash(config.hashed_password)) {
      throw kratosErrors.badRequest(
        'The hashed password uses an unsupported algorithm; use argon2, bcrypt, pbkdf2 or scrypt.',
      );
    }
    return config.hashed_password;
  }
  return config.password ? services.passwords.hash(config.password) : undefined;
}

/** Backup codes as the portal keeps them: a used one with its `used_at`, an unused one without. */
export const recoveryCodesOfImport = (codes: z.infer<typeof lookupConfig>['codes']) =>
  codes.map(({ code, used_at }) =>
    used_at ? { code: code.toLowerCase(), used_at: new Date(used_at).toISOString() } : { code: code.toLowerCase() },
  );

/** Imported keys with the time they were added, when the import did not say it. */
export const keysOfImport = (config: z.infer<typeof keyConfig>) => ({
  credentials: config.credentials.map((key) => ({ ...key, added_at: key.added_at ?? new Date().toISOString() })),
  user_handle: config.user_handle,
});
