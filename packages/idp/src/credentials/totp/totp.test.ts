import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newTotpSecret, secretOfTotpUrl, totpQrDataUrl, totpUrl, verifyTotpCode } from './totp.js';

const at = (secret: string, stepOffset: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepOffset * 30 });
const currentStep = () => Math.floor(Date.now() / 1000 / 30);

describe('TOTP', () => {
  it('makes a 20-byte base32 secret and an otpauth URL that carries it', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = totpUrl('portaal.example.nl', 'anna@example.nl', secret);
    expect(url).toMatch(/^otpauth:\/\/totp\//);
    expect(secretOfTotpUrl(url)).toBe(secret);
    expect(secretOfTotpUrl('not a url')).toBeUndefined();
    expect(secretOfTotpUrl(42)).toBeUndefined();
  });

  it('accepts the current code and one step of drift, returning the matched step', async () => {
    const secret = newTotpSecret();
    const step = await verifyTotpCode(secret, await at(secret, 0), null);
    expect(step === currentStep() || step === currentStep() - 1 || step === currentStep() + 1).toBe(true);
    expect(await verifyTotpCode(secret, await at(secret, -1), null)).toBeDefined();
    expect(await verifyTotpCode(secret, await at(secret, 3), null)).toBeUndefined();
  });

  it('refuses a code of a step that was already used', async () => {
    const secret = newTotpSecret();
    const code = await at(secret, 0);
    const step = (await verifyTotpCode(secret, code, null))!;
    expect(await verifyTotpCode(secret, code, step)).toBeUndefined();
    expect(await verifyTotpCode(secret, await at(secret, -1), step)).toBeUndefined();
  });

  it('refuses malformed codes without throwing', async () => {
    const secret = newTotpSecret();
    for (const code of ['', '12345', '1234567', 'abcdef', ' 123456'])
      expect(await verifyTotpCode(secret, code, null)).toBeUndefined();
    expect(await verifyTotpCode('not-base32!', '123456', null)).toBeUndefined();
  });

  it('draws the QR code as a PNG data URL', async () => {
    expect(await totpQrDataUrl(totpUrl('x', 'y', newTotpSecret()))).toMatch(/^data:image\/png;base64,/);
  });
});

describe('TOTP at a fixed time', () => {
  // The middle of a 30-second step, so that the window is exactly steps s-1, s and s+1.
  const step = 58_000_000;
  const now = step * 30 + 15;
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  const codeOf = (s: number) => generate({ secret, epoch: s * 30 });

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now * 1000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('returns the exact step of the code, one step either way', async () => {
    expect(await verifyTotpCode(secret, await codeOf(step), null)).toBe(step);
    expect(await verifyTotpCode(secret, await codeOf(step - 1), null)).toBe(step - 1);
    expect(await verifyTotpCode(secret, await codeOf(step + 1), null)).toBe(step + 1);
  });

  it('refuses codes two steps away', async () => {
    const near = new Set(await Promise.all([step - 1, step, step + 1].map(codeOf)));
    for (const far of [step - 2, step + 2]) {
      const code = await codeOf(far);
      expect(near.has(code)).toBe(false); // fixed secret and time: true for this data
      expect(await verifyTotpCode(secret, code, null)).toBeUndefined();
    }
  });

  it('refuses a wrong code and a code of another secret', async () => {
    const near = new Set(await Promise.all([step - 1, step, step + 1].map(codeOf)));
    const wrong = ['000000', '123456', '999999'].find((c) => !near.has(c))!;
    expect(await verifyTotpCode(secret, wrong, null)).toBeUndefined();
    const other = await generate({ secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', epoch: now });
    expect(near.has(other)).toBe(false);
    expect(await verifyTotpCode(secret, other, null)).toBeUndefined();
  });

  it('accepts only steps after the last used one', async () => {
    expect(await verifyTotpCode(secret, await codeOf(step), step - 1)).toBe(step);
    expect(await verifyTotpCode(secret, await codeOf(step), step)).toBeUndefined();
    expect(await verifyTotpCode(secret, await codeOf(step + 1), step)).toBe(step + 1);
    expect(await verifyTotpCode(secret, await codeOf(step + 1), step + 1)).toBeUndefined();
  });

  it('refuses without throwing when the last used step lies in the future', async () => {
    expect(await verifyTotpCode(secret, await codeOf(step), step + 10)).toBeUndefined();
  });
});

describe('TOTP URL', () => {
  it('names issuer and account and carries the secret', () => {
    const url = new URL(totpUrl('portaal.example.nl', 'anna@example.nl', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'));
    expect(url.protocol).toBe('otpauth:');
    expect(decodeURIComponent(url.pathname)).toContain('portaal.example.nl:anna@example.nl');
    expect(url.searchParams.get('issuer')).toBe('portaal.example.nl');
    expect(secretOfTotpUrl(url.toString())).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
  });

  it('has no secret for a URL without one', () => {
    expect(secretOfTotpUrl('otpauth://totp/x:y?issuer=x')).toBeUndefined();
    expect(secretOfTotpUrl(undefined)).toBeUndefined();
  });

  it('makes a different secret each time', () => {
    expect(new Set(Array.from({ length: 20 }, newTotpSecret)).size).toBe(20);
  });
});
