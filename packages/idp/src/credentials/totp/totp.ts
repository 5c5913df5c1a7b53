import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

const PERIOD = 30;

/** A 20-byte base32 secret, as Kratos generates (docs/kratos-compatibility.md#authenticator-app-and-backup-codes). */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

export const totpUrl = (issuer: string, account: string, secret: string): string =>
  generateURI({ issuer, label: account, secret, algorithm: 'sha1', digits: 6, period: PERIOD });

export function secretOfTotpUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url).searchParams.get('secret') ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a 6-digit code with one step of drift either way. Returns the matched time step so the caller can record
 * it and refuse the same or an earlier step next time (RFC 6238 §5.2, Kratos does not do this).
 */
export async function verifyTotpCode(
  secret: string,
  code: string,
  afterStep: number | null,
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const result = await verify({
      secret,
      token: code,
      period: PERIOD,
      epochTolerance: PERIOD,
      ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  } catch {
    return undefined;
  }
}

/** The QR code as a 256×256 PNG data URL, like Kratos' `totp_qr` image node. */
export const totpQrDataUrl = (url: string): Promise<string> =>
  QRCode.toDataURL(url, { type: 'image/png', width: 256, margin: 1, errorCorrectionLevel: 'M' });
