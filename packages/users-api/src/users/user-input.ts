import { hasHiddenCharacters } from '@portaal/idp';
import { z } from 'zod';

/** What the Users API accepts as a person's data: the rules, apart from how a refusal is worded (http/validation). */
export const emailSchema = z.string().trim().toLowerCase().max(320).pipe(z.email());
export const HIDDEN_CHARACTERS = 'hidden characters';
export const personName = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .refine((value) => !hasHiddenCharacters(value), HIDDEN_CHARACTERS);

const traitsSchema = z.object({
  email: emailSchema,
  name: z.object({ first: personName, last: personName }),
});

const permission = z.object({
  namespace: z.unknown(),
  object: z.unknown(),
  relation: z.unknown(),
  subject_id: z.unknown().optional(),
});

// The names may be left out when the address has an account already: the new-user form then only adds permissions.
export const createUserSchema = z.object({
  traits: z.object({ email: emailSchema, name: z.object({ first: personName, last: personName }).optional() }),
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
