import crypto from 'node:crypto';
import { messages, type UiText } from '../../ui/messages.js';

export interface RecoveryCode {
  code: string;
  used_at?: string;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * 12 codes of 8 characters `[a-z0-9]` from a CSPRNG
 * (docs/kratos-compatibility.md#authenticator-app-and-backup-codes).
 */
export function newRecoveryCodes(): RecoveryCode[] {
  return Array.from({ length: 12 }, () => ({
    code: Array.from({ length: 8 }, () => ALPHABET[crypto.randomInt(0, ALPHABET.length)]).join(''),
  }));
}

export function recoveryCodesOf(config: Record<string, unknown>): RecoveryCode[] {
  const codes = config.recovery_codes;
  return Array.isArray(codes)
    ? codes.filter(
        (c): c is RecoveryCode => typeof c === 'object' && c !== null && typeof (c as RecoveryCode).code === 'string',
      )
    : [];
}

/** The 1050015 text node content: each code as 1050009, each used one as 1050014. */
export function recoveryCodesText(codes: RecoveryCode[]): UiText {
  return messages.lookupSecretList(
    codes.map((c) => (c.used_at ? messages.lookupSecretUsed(new Date(c.used_at)) : messages.lookupSecret(c.code))),
  );
}

/** Constant-time search so that timing does not reveal how much of a code matched. */
export function findRecoveryCode(codes: RecoveryCode[], submitted: string): RecoveryCode | undefined {
  const wanted = crypto.createHash('sha256').update(submitted.trim().toLowerCase()).digest();
  let found: RecoveryCode | undefined;
  for (const code of codes) {
    const candidate = crypto.createHash('sha256').update(code.code).digest();
    if (crypto.timingSafeEqual(candidate, wanted)) found = code;
  }
  return found;
}
