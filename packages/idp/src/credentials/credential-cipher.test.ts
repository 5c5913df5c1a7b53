import { afterEach, describe, expect, it } from 'vitest';
import { isSealed, needsSealing, openConfig, sealConfig, useCredentialKeys } from './credential-cipher.js';

// The sealing of the secrets inside credentials (docs/security.md#7-password-storage).
const FIRST = 'eerste-sleutel-voor-geheimen-van-minstens-32-tekens';
const SECOND = 'tweede-sleutel-voor-geheimen-van-minstens-32-tekens';
const totp = { totp_url: 'otpauth://totp/Portaal:a@b.nl?secret=JBSWY3DPEHPK3PXP' };
const lookup = { recovery_codes: [{ code: 'abcd1234' }, { code: 'efgh5678', used_at: '2026-11-26T10:00:00Z' }] };

afterEach(() => useCredentialKeys([]));

describe('sealing credential secrets', () => {
  it('seals only the secrets, keeps the shape, and opens them again', () => {
    useCredentialKeys([FIRST]);
    const sealedTotp = sealConfig('totp', totp);
    const sealedCodes = sealConfig('lookup_secret', lookup) as typeof lookup;
    expect(JSON.stringify([sealedTotp, sealedCodes])).not.toMatch(/JBSWY3DPEHPK3PXP|abcd1234|efgh5678/);
    expect(sealedCodes.recovery_codes[1]!.used_at).toBe('2026-11-26T10:00:00Z');
    expect(isSealed(sealedTotp.totp_url)).toBe(true);
    expect(openConfig('totp', sealedTotp)).toEqual(totp);
    expect(openConfig('lookup_secret', sealedCodes)).toEqual(lookup);
    expect(sealConfig('password', { hashed_password: 'x' })).toEqual({ hashed_password: 'x' });
  });

  it('opens with an older key after a rotation, and knows what to seal anew', () => {
    useCredentialKeys([FIRST]);
    const sealed = sealConfig('totp', totp);
    useCredentialKeys([SECOND, FIRST]);
    expect(openConfig('totp', sealed)).toEqual(totp);
    expect(needsSealing('totp', sealed)).toBe(true);
    expect(needsSealing('totp', totp)).toBe(true);
    expect(needsSealing('totp', sealConfig('totp', totp))).toBe(false);
    useCredentialKeys([SECOND]);
    expect(() => openConfig('totp', sealed)).toThrow(/niet in SECRETS_CIPHER staat/);
  });

  it('refuses a sealed value that was changed', () => {
    useCredentialKeys([FIRST]);
    const sealed = sealConfig('totp', totp) as { totp_url: string };
    const url = sealed.totp_url;
    const flipped = `${url.slice(0, -2)}${url.at(-2) === 'A' ? 'B' : 'A'}${url.at(-1)}`;
    expect(() => openConfig('totp', { totp_url: flipped })).toThrow();
  });
});
