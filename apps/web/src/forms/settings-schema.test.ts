import { describe, expect, it } from 'vitest';
import { settingsSchema } from './settings-schema';

const errors = (input: Record<string, string>) => {
  const result = settingsSchema.safeParse({
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    confirmPassword: '',
    ...input,
  });
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('settings form rules', () => {
  it('needs at least one field', () => {
    expect(errors({})).toEqual({ root: 'Geen van de velden is aangepast.' });
  });
  it('checks name lengths with the spec texts', () => {
    expect(errors({ firstName: 'A' })).toEqual({ firstName: 'Naam is te kort.' });
    expect(errors({ lastName: 'x'.repeat(51) })).toEqual({ lastName: 'Naam te is lang.' });
    expect(errors({ firstName: 'Anna' })).toEqual({});
  });
  it('checks the e-mail address', () => {
    expect(errors({ email: 'geen-adres' })).toEqual({ email: 'Het e-mailadres veld is niet herkend als e-mailadres.' });
  });
  it('checks the new password and its confirmation', () => {
    expect(errors({ password: 'kort', confirmPassword: 'kort' })).toEqual({
      password: 'Het nieuwe wachtwoord bevat geen 8 tekens.',
    });
    expect(errors({ password: 'lang-genoeg-1' })).toEqual({
      confirmPassword: '"Wachtwoord bevestigen" is een verplicht veld.',
    });
    expect(errors({ password: 'lang-genoeg-1', confirmPassword: 'lang-genoeg-2' })).toEqual({
      confirmPassword: 'Wachtwoorden komen niet overeen.',
    });
    expect(errors({ password: 'lang-genoeg-1', confirmPassword: 'lang-genoeg-1' })).toEqual({});
  });
});
