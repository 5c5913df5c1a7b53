import { z } from 'zod';

const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);
const name = z.preprocess(
  emptyToNull,
  z.string().trim().min(2, 'Naam is te kort.').max(50, 'Naam te is lang.').nullable(),
);
const NOTHING_CHANGED = 'Geen van de velden is aangepast.';

/**
 * The settings screen's rules, one schema per section with its own save button; their Dutch texts are fixed byte for
 * byte (typos included). An empty field means: keep what is there.
 */
export const profileSchema = z
  .object({
    firstName: name,
    lastName: name,
    email: z.preprocess(
      emptyToNull,
      z.string().trim().email('Het e-mailadres veld is niet herkend als e-mailadres.').nullable(),
    ),
  })
  .superRefine((values, context) => {
    if (!values.firstName && !values.lastName && !values.email) {
      context.addIssue({ code: 'custom', path: ['root'], message: NOTHING_CHANGED });
    }
  });

export const passwordSchema = z
  .object({
    password: z.preprocess(emptyToNull, z.string().min(8, 'Het nieuwe wachtwoord bevat geen 8 tekens.').nullable()),
    confirmPassword: z.preprocess(emptyToNull, z.string().nullable()),
  })
  .superRefine((values, context) => {
    if (values.password && !values.confirmPassword) {
      context.addIssue({
        code: 'custom',
        path: ['confirmPassword'],
        message: '"Wachtwoord bevestigen" is een verplicht veld.',
      });
    } else if (values.password && values.confirmPassword !== values.password) {
      context.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Wachtwoorden komen niet overeen.' });
    }
    if (!values.password) context.addIssue({ code: 'custom', path: ['root'], message: NOTHING_CHANGED });
  });

export type ProfileValues = z.output<typeof profileSchema>;
export type PasswordValues = z.output<typeof passwordSchema>;
