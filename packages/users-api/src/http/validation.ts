import { hasHiddenCharacters } from '@portaal/idp';
import { z } from 'zod';
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

/** Parses a body or refuses it with one English reason and a Dutch message, worded as the portal's forms word it. */
export function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.join('.');
  if (path.startsWith('traits.email')) {
    throw errors.invalid(
      'The e-mail address is not valid.',
      'Het opgegeven e-mailadres wordt niet herkent als valide e-mailadres.',
    );
  }
  if (path.startsWith('traits.name'))
    throw issue.message === HIDDEN_CHARACTERS ? errors.hiddenCharactersInName() : errors.invalidName();
  throw errors.invalid(
    `The request body is invalid at ${path || 'the top level'}: ${issue.message}`,
    'Het verzoek is niet compleet of niet geldig.',
  );
}
