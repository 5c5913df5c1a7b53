import { hasHiddenCharacters } from '@portaal/idp';
import { z } from 'zod';
import { UUID } from '../users/user-id.js';
import { errors } from './api-error.js';

export const emailSchema = z.string().trim().toLowerCase().max(320).pipe(z.email());
const HIDDEN_CHARACTERS = 'hidden characters';
const name = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .refine((value) => !hasHiddenCharacters(value), HIDDEN_CHARACTERS);

const traitsSchema = z.object({
  email: emailSchema,
  name: z.object({ first: name, last: name }),
});

const permission = z.object({
  namespace: z.unknown(),
  object: z.unknown(),
  relation: z.unknown(),
  subject_id: z.unknown().optional(),
});

// The names may be left out when the address has an account already: the new-user form then only adds permissions.
export const createUserSchema = z.object({
  traits: z.object({ email: emailSchema, name: z.object({ first: name, last: name }).optional() }),
  permissions: z.array(permission).max(100).default([]),
});
export const updateUserSchema = z.object({
  schema_id: z.string().optional(),
  state: z.enum(['active', 'inactive']).optional(),
  traits: traitsSchema.optional(),
});
export const permissionListSchema = z.array(permission).max(100);
export type CreateUserInput = z.infer<typeof createUserSchema>;
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

const invalidEmail = () =>
  errors.invalid(
    'The e-mail address is not valid.',
    'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.',
  );

/** `HEAD /users?email=`: the existence check takes one field, a valid e-mail address. */
export function existenceQuery(query: unknown): string {
  const fields = (query ?? {}) as Record<string, unknown>;
  if (Object.keys(fields).some((key) => key !== 'email'))
    throw errors.invalid('Only the email field can be checked.', 'Alleen een e-mailadres kan worden gecontroleerd.');
  const email = emailSchema.safeParse(fields.email);
  if (!email.success) throw invalidEmail();
  return email.data;
}

/** `GET /users?email=`: the list, optionally only the people with this address (as typed, trimmed, lower case). */
export function listQuery(query: unknown): string | undefined {
  const email = ((query ?? {}) as Record<string, unknown>).email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
}

const permissionQuerySchema = z.object({
  namespace: z.string(),
  object: z.string(),
  relation: z.string(),
  subject_id: z.string().regex(UUID),
});

/** `DELETE /permissions?namespace=&object=&relation=&subject_id=`: the one relation of one member to remove. */
export function permissionQuery(query: unknown) {
  const parsed = permissionQuerySchema.safeParse(query ?? {});
  if (!parsed.success)
    throw errors.invalid(
      'namespace, object, relation and subject_id are required.',
      'Geef aan welk recht van welke gebruiker weg moet.',
    );
  const { namespace, object, relation, subject_id } = parsed.data;
  return { namespace, object, relation, subject_id: subject_id.toLowerCase() };
}

/** Parses a body or refuses it with one English reason and a Dutch message, worded as the portal's forms word it. */
export function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.join('.');
  if (path.startsWith('traits.email')) throw invalidEmail();
  if (path.startsWith('traits.name'))
    throw issue.message === HIDDEN_CHARACTERS ? errors.hiddenCharactersInName() : errors.invalidName();
  throw errors.invalid(
    `The request body is invalid at ${path || 'the top level'}: ${issue.message}`,
    'Het verzoek is niet compleet of niet geldig.',
  );
}
