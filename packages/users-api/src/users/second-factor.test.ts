import { describe, expect, it } from 'vitest';
import { acrOf, amrOf, factorKinds, hasSecondFactor, hasSecondStep, secondFactorMet } from './second-factor.js';

describe('the second-factor policy (docs/organisations.md#second-factor-policy)', () => {
  it('accepts a sign-in with a passkey or a security key, and an aal2 session, as Kratos leaves the aal', () => {
    expect(secondFactorMet({ aal: 'aal1', methods: ['passkey'] })).toBe(true);
    expect(secondFactorMet({ aal: 'aal2', methods: ['password', 'webauthn'] })).toBe(true);
    expect(secondFactorMet({ aal: 'aal1', methods: ['webauthn'] })).toBe(true);
    expect(secondFactorMet({ aal: 'aal2', methods: ['password', 'totp'] })).toBe(true);
    expect(secondFactorMet({ aal: 'aal2', methods: ['password', 'lookup_secret'] })).toBe(true);
  });

  it('refuses a password alone, a code alone or a recovery, whatever the credentials the person has', () => {
    expect(secondFactorMet({ aal: 'aal1', methods: ['password'] })).toBe(false);
    expect(secondFactorMet({ aal: 'aal1', methods: ['code'] })).toBe(false);
    expect(secondFactorMet({ aal: 'aal1', methods: ['code_recovery', 'password'] })).toBe(false);
    expect(secondFactorMet({ aal: 'aal0', methods: [] })).toBe(false);
  });

  it('gives services acr aal2 for a passkey sign-in and amr after RFC 8176', () => {
    expect(acrOf({ aal: 'aal1', methods: ['passkey'] })).toBe('aal2');
    expect(acrOf({ aal: 'aal1', methods: ['password'] })).toBe('aal1');
    expect(amrOf({ aal: 'aal1', methods: ['passkey'] })).toEqual(['hwk', 'user']);
    expect(amrOf({ aal: 'aal2', methods: ['password', 'webauthn'] })).toEqual(['pwd', 'hwk']);
    expect(amrOf({ aal: 'aal2', methods: ['password', 'totp'] })).toEqual(['pwd', 'otp']);
    expect(amrOf({ aal: 'aal1', methods: ['password'] })).toEqual(['pwd']);
  });
});

describe('factor kinds', () => {
  it('names the kinds of factor from the credentials, in a fixed order, ignoring the password', () => {
    expect(factorKinds(['passkey', 'password', 'webauthn', 'totp', 'lookup_secret'])).toEqual([
      'app',
      'backup_codes',
      'security_key',
      'passkey',
    ]);
    expect(factorKinds(['password'])).toEqual([]);
    expect(factorKinds(['passkey', 'password'])).toEqual(['passkey']);
  });

  it('knows which credentials have a second step and which meet the policy', () => {
    expect(hasSecondStep(['password', 'webauthn'])).toBe(true);
    expect(hasSecondStep(['password', 'passkey'])).toBe(false);
    expect(hasSecondFactor(['password', 'passkey'])).toBe(true);
    expect(hasSecondFactor(['password'])).toBe(false);
  });
});
