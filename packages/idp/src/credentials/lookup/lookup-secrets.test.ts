import { describe, expect, it } from 'vitest';
import { findRecoveryCode, newRecoveryCodes, recoveryCodesOf, recoveryCodesText } from './lookup-secrets.js';

describe('backup codes', () => {
  it('makes 12 distinct codes of 8 characters', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(12);
    for (const { code } of codes) expect(code).toMatch(/^[a-z0-9]{8}$/);
    expect(new Set(codes.map((c) => c.code)).size).toBe(12);
  });

  it('finds a code whatever its case and surrounding spaces, and nothing else', () => {
    const codes = newRecoveryCodes();
    const wanted = codes[5]!;
    expect(findRecoveryCode(codes, ` ${wanted.code.toUpperCase()} `)).toBe(wanted);
    expect(findRecoveryCode(codes, wanted.code.slice(0, 7))).toBeUndefined();
    expect(findRecoveryCode(codes, '')).toBeUndefined();
  });

  it('reads stored codes defensively', () => {
    expect(recoveryCodesOf({ recovery_codes: [{ code: 'abcd1234' }, { nope: 1 }, 'x', null] })).toEqual([{ code: 'abcd1234' }]);
    expect(recoveryCodesOf({})).toEqual([]);
  });

  it('shows codes as 1050009 and used ones as 1050014 inside a 1050015 list', () => {
    const text = recoveryCodesText([{ code: 'abcd1234' }, { code: 'efgh5678', used_at: '2026-01-02T03:04:05Z' }]);
    expect(text.id).toBe(1050015);
    const secrets = (text.context as { secrets: { id: number; text: string }[] }).secrets;
    expect(secrets.map((s) => s.id)).toEqual([1050009, 1050014]);
    expect(secrets[0]!.text).toBe('abcd1234');
  });
});
