import crypto from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `<prefix>` + 32 random alphanumerics (about 190 bits), like Kratos' `ory_st_` session tokens. */
export function randomToken(prefix: string, length = 32): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length)) {
      // 248 = 62 * 4: rejection sampling keeps the characters uniform
      if (byte < 248 && out.length < length) out += ALPHANUMERIC[byte % 62];
    }
  }
  return prefix + out;
}

/** Only hashes of tokens and codes are stored, so a database leak does not hand out sessions. */
export const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');

/** Six random digits from a CSPRNG. */
export const randomDigits = (count = 6): string =>
  Array.from({ length: count }, () => crypto.randomInt(0, 10).toString()).join('');
