import { z } from 'zod';

const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);
const name = z.preprocess(
  emptyToNull,
  z.string().trim().min(2, 'Naam is te kort.').max(50, 'Naam te is lang.').nullable(),
);

/** The settings form's rules; their Dutch texts are fixed byte for byte (typos included). */
export const settingsSchema = z
  .object({
    firstName: name,
    lastName: name,
    email: z.preprocess(
      emptyToNull,
      z.string().trim().email('Het e-mailadres veld is niet herkend als e-mailadres.').nullable(),
    ),
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
    if (!values.firstName && !values.lastName && !values.email && !values.password) {
      context.addIssue({ code: 'custom', path: ['root'], message: 'Geen van de velden is aangepast.' });
    }
  });

export type SettingsInput = z.input<typeof settingsSchema>;
export type SettingsValues = z.output<typeof settingsSchema>;
