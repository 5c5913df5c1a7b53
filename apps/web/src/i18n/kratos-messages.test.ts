import { describe, expect, it } from 'vitest';
import { translate } from './kratos-messages';

describe('translate', () => {
  it('translates by message id first', () => {
    expect(translate({ id: 4000006, text: 'The provided credentials are invalid…' })).toBe(
      'Het e-mailadres of wachtwoord klopt niet. Controleer ze en probeer het opnieuw. ' +
        'Na te veel mislukte pogingen is je account een tijdje geblokkeerd.',
    );
    expect(translate({ id: 4000032, text: 'x', context: { min_length: 8, actual_length: 5 } })).toBe(
      'Het wachtwoord moet minimaal 8 tekens bevatten.',
    );
    expect(translate({ id: 4000002, text: 'Property password is missing.', context: { property: 'password' } })).toBe(
      'Vul je wachtwoord in.',
    );
  });

  it('labels the schema fields by their name', () => {
    expect(
      translate({ id: 1070002, text: 'First Name', context: { title: 'First Name', name: 'traits.name.first' } }),
    ).toBe('Voornaam');
    expect(translate({ id: 1070002, text: 'E-Mail', context: { title: 'E-Mail', name: 'traits.email' } })).toBe(
      'E-mailadres',
    );
    expect(translate({ id: 1070007, text: 'Email' })).toBe('E-mailadres');
  });

  it('keeps the spec text of a used backup code', () => {
    expect(translate({ id: 1050014, text: 'Secret was used at 2026-01-01' })).toBe('Used');
  });

  it('falls back to English text patterns with wildcards', () => {
    expect(translate({ id: 999, text: 'Property email is missing.' })).toBe('Vul je e-mailadres in.');
    expect(translate({ id: 999, text: 'The password must be at least 10 characters long, but got 3.' })).toBe(
      'Het wachtwoord moet minimaal 10 tekens bevatten.',
    );
  });

  it('counts characters in correct Dutch: 1 teken, 2 tekens', () => {
    expect(translate({ id: 4000003, text: 'length must be >= 1, but got 0', context: { min_length: 1 } })).toBe(
      'Vul minimaal 1 teken in.',
    );
    expect(translate({ id: 4000003, text: 'length must be >= 6, but got 2', context: { min_length: 6 } })).toBe(
      'Vul minimaal 6 tekens in.',
    );
    expect(translate({ id: 4000017, text: 'x', context: { max_length: 1 } })).toBe('Vul maximaal 1 teken in.');
    expect(translate({ id: 999, text: 'length must be >= 1, but got 0' })).toBe('Vul minimaal 1 teken in.');
  });

  it('names the field and what to do for an empty or too short value, not a count of characters (B1)', () => {
    // The provider's answer to an empty e-mail address and password on the sign-in form (JSON: 4000003 with 1).
    const empty = { id: 4000003, text: 'length must be >= 1, but got 0', context: { min_length: 1, actual_length: 0 } };
    expect(translate(empty, 'identifier')).toBe('Vul je e-mailadres in.');
    expect(translate(empty, 'password')).toBe('Vul je wachtwoord in.');
    expect(translate(empty, 'totp_code')).toBe('Vul de verificatiecode uit je authenticator-app in.');
    expect(translate(empty, 'lookup_secret')).toBe('Vul een back-upcode in.');
    expect(
      translate({ id: 4000003, text: 'length must be >= 6, but got 3', context: { min_length: 6 } }, 'totp_code'),
    ).toBe('Vul alle 6 cijfers van de verificatiecode uit je authenticator-app in.');
    expect(translate({ id: 999, text: 'length must be >= 1, but got 0' }, 'identifier')).toBe('Vul je e-mailadres in.');
    expect(translate({ id: 4000002, text: 'Property code is missing.', context: { property: 'code' } })).toBe(
      'Vul de code uit de e-mail in.',
    );
    expect(translate({ id: 4000002, text: 'Property x is missing.', context: { property: 'x' } })).toBe(
      'Vul dit veld in.',
    );
    for (const id of [4000004, 4000040])
      expect(translate({ id, text: 'does not match pattern "email"' }, 'traits.email')).toBe(
        'Vul een geldig e-mailadres in, zoals naam@gemeente.nl.',
      );
    expect(translate({ id: 4000017, text: 'x', context: { max_length: 50 } }, 'traits.name.first')).toBe(
      'Je voornaam is te lang. Vul maximaal 50 tekens in.',
    );
  });

  it('says what to do after a wrong second-factor code or backup code', () => {
    expect(translate({ id: 4000008, text: 'The provided authentication code is invalid, please try again.' })).toBe(
      'De verificatiecode klopt niet of is al gebruikt. Vul de code in die je authenticator-app nu laat zien.',
    );
    expect(translate({ id: 4000012, text: 'This backup recovery code has already been used.' })).toBe(
      'Deze back-upcode is al gebruikt. Vul een andere back-upcode in.',
    );
    expect(translate({ id: 4000016, text: 'The backup recovery code is not valid.' })).toBe(
      'Deze back-upcode klopt niet. Controleer de code en vul hem opnieuw in.',
    );
  });

  it('shows unknown text unchanged', () => {
    expect(translate({ id: 999, text: 'Something entirely new.' })).toBe('Something entirely new.');
  });

  it('has Dutch for every message our provider sends', async () => {
    const { readFileSync } = await import('node:fs');
    // Vitest runs from the repository root.
    const source = readFileSync('packages/idp/src/ui/messages.ts', 'utf8');
    const ids = [...source.matchAll(/\b(?:info|error|success)\((\d{7})/g)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(40);
    const context = { secret: 'ABCD', name: 'traits.email', title: 'E-Mail', property: 'password', min_length: 8 };
    const untranslated = ids.filter((id) => translate({ id, text: '__english__', context }) === '__english__');
    expect(untranslated).toEqual([]);
  });
});

describe('security keys and passkeys', () => {
  it('has Dutch for every message id of the webauthn and passkey methods', () => {
    const english: [number, string][] = [
      [1010008, 'Sign in with a hardware key'],
      [1010011, 'Sign in with a hardware key'],
      [1010012, 'Prepare your WebAuthn device (e.g. security key, biometrics scanner, ...) and press continue.'],
      [1010021, 'Sign in with passkey'],
      [1040004, 'Sign up with security key'],
      [1040007, 'Sign up with passkey'],
      [1050012, 'Add security key'],
      [1050013, 'Name of the security key'],
      [1050018, 'Remove security key "x"'],
      [1050019, 'Add passkey'],
      [1050020, 'Remove passkey "x"'],
      [4000013, 'You have no WebAuthn device set up.'],
      [4000015, 'This account does not exist or has no security key set up.'],
      [4000043, 'The provided web authn login is invalid, please try again.'],
    ];
    for (const [id, text] of english) {
      const dutch = translate({ id, text });
      expect([id, dutch]).not.toEqual([id, text]);
      expect(dutch).not.toMatch(/security|hardware|sign|add|remove/i);
    }
    expect(translate({ id: 1010021, text: 'Sign in with passkey' })).toBe('Inloggen met een passkey');
  });

  it('names the key in its remove button, and leaves the name out when there is none', () => {
    const context = { display_name: 'Sleutelbos', added_at: '2026-11-01T10:00:00Z' };
    expect(translate({ id: 1050018, text: 'Remove security key "Sleutelbos"', context })).toBe(
      'Beveiligingssleutel "Sleutelbos" verwijderen',
    );
    expect(translate({ id: 1050020, text: 'Remove passkey ""', context: { display_name: '' } })).toBe(
      'Passkey verwijderen',
    );
  });
});
