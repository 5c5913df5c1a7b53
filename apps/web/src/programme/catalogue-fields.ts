import { z } from 'zod';

// The codes and names of the catalogue (organisations and their data roles), checked as the server checks them, in
// the server's own words (packages/users-api/src/api-error.ts): the forms check first only to save a round trip.

export const CODE_RULE = 'Gebruik voor de code alleen kleine letters, cijfers en koppeltekens, hoogstens 64 tekens.';
export const NAME_RULE = 'Vul een naam in van hoogstens 200 tekens, zonder onzichtbare tekens.';

/** A new code: it does not change once added. */
export const codeSchema = z
  .string()
  .trim()
  .max(64, CODE_RULE)
  .regex(/^[a-z0-9][a-z0-9-]*$/, CODE_RULE);
export const nameSchema = z.string().trim().min(1, NAME_RULE).max(200, NAME_RULE);

/** The server's refusals of a code or a name (for a data role too), by their English reason. */
export const REFUSED_FIELDS = {
  'The organisation id is not valid.': 'id',
  'The organisation name is not valid.': 'label',
} as const;
