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
    expect(recoveryCodesOf({ recovery_codes: [{ code: 'abcd1234' }, { nope: 1 }, 'x', null] })).toEqual([
      { code: 'abcd1234' },
    ]);
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

describe('backup codes, edge cases', () => {
  it('draws fresh codes on every call, all found by themselves', () => {
    const a = newRecoveryCodes();
    const b = newRecoveryCodes();
    expect(a.map((c) => c.code)).not.toEqual(b.map((c) => c.code));
    for (const code of a) expect(findRecoveryCode(a, code.code)).toBe(code);
    expect(findRecoveryCode(a, b[0]!.code)).toBeUndefined();
  });

  it('does not ignore spaces inside a code, and finds nothing in an empty list', () => {
    const codes = [{ code: 'abcd1234' }];
    expect(findRecoveryCode(codes, 'abcd 1234')).toBeUndefined();
    expect(findRecoveryCode(codes, 'abcd1234x')).toBeUndefined();
    expect(findRecoveryCode([], 'abcd1234')).toBeUndefined();
  });

  it('returns a used code as well; deciding about used_at is up to the caller', () => {
    const used = { code: 'abcd1234', used_at: '2026-01-02T03:04:05Z' };
    expect(findRecoveryCode([{ code: 'efgh5678' }, used], 'ABCD1234')).toBe(used);
  });

  it('reads a missing or non-list value as no codes', () => {
    for (const value of [undefined, null, 'abcd1234', { code: 'abcd1234' }, 42]) {
      expect(recoveryCodesOf({ recovery_codes: value })).toEqual([]);
    }
  });

  it('writes used codes with their time, and the list text with "used" in their place', () => {
    const text = recoveryCodesText([{ code: 'abcd1234' }, { code: 'efgh5678', used_at: '2026-01-02T03:04:05.000Z' }]);
    expect(text.text).toBe('abcd1234, used');
    const [, used] = (text.context as { secrets: { text: string; context: Record<string, unknown> }[] }).secrets;
    expect(used!.text).toBe('Secret was used at 2026-01-02 03:04:05 +0000 UTC');
    expect(used!.context).toMatchObject({ used_at: '2026-01-02T03:04:05Z', used_at_unix: 1767323045 });
    expect(JSON.stringify(text)).not.toContain('efgh5678');
  });
});
