import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { newTotpSecret, secretOfTotpUrl, totpQrDataUrl, totpUrl, verifyTotpCode } from './totp.js';

const at = (secret: string, stepOffset: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepOffset * 30 });
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
    for (const code of ['', '12345', '1234567', 'abcdef', ' 123456']) expect(await verifyTotpCode(secret, code, null)).toBeUndefined();
    expect(await verifyTotpCode('not-base32!', '123456', null)).toBeUndefined();
  });

  it('draws the QR code as a PNG data URL', async () => {
    expect(await totpQrDataUrl(totpUrl('x', 'y', newTotpSecret()))).toMatch(/^data:image\/png;base64,/);
  });
});
