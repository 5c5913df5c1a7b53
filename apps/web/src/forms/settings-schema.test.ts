import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { passwordSchema, profileSchema } from './settings-schema';

const errorsOf = (schema: z.ZodType, input: Record<string, string>) => {
  const result = schema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};
const profile = (input: Record<string, string>) =>
  errorsOf(profileSchema, { firstName: '', lastName: '', email: '', ...input });
const password = (input: Record<string, string>) =>
  errorsOf(passwordSchema, { password: '', confirmPassword: '', ...input });

describe('settings form rules', () => {
  it('needs at least one field in each section', () => {
    expect(profile({})).toEqual({ root: 'Geen van de velden is aangepast.' });
    expect(password({})).toEqual({ root: 'Geen van de velden is aangepast.' });
  });
  it('checks name lengths with the spec texts', () => {
    expect(profile({ firstName: 'A' })).toEqual({ firstName: 'Naam is te kort.' });
    expect(profile({ lastName: 'x'.repeat(51) })).toEqual({ lastName: 'Naam te is lang.' });
    expect(profile({ firstName: 'Anna' })).toEqual({});
  });
  it('checks the e-mail address', () => {
    expect(profile({ email: 'geen-adres' })).toEqual({
      email: 'Het e-mailadres veld is niet herkend als e-mailadres.',
    });
  });
  it('checks the new password and its confirmation', () => {
    expect(password({ password: 'kort', confirmPassword: 'kort' })).toEqual({
      password: 'Het nieuwe wachtwoord bevat geen 8 tekens.',
    });
    expect(password({ password: 'lang-genoeg-1' })).toEqual({
      confirmPassword: '"Wachtwoord bevestigen" is een verplicht veld.',
    });
    expect(password({ password: 'lang-genoeg-1', confirmPassword: 'lang-genoeg-2' })).toEqual({
      confirmPassword: 'Wachtwoorden komen niet overeen.',
    });
    expect(password({ password: 'lang-genoeg-1', confirmPassword: 'lang-genoeg-1' })).toEqual({});
  });
});
