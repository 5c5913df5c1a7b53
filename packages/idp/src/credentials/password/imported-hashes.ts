import crypto from 'node:crypto';
import { promisify } from 'node:util';

// Password hashes in the formats Ory Kratos verifies for imported passwords (hash/hash_comparator.go): PBKDF2 and
// scrypt, checked with node's own crypto and replaced by argon2id at the next sign-in (docs/kratos-compatibility.md
// #moving-from-ory-kratos). The bounds keep a hash that an administrator imported from costing unbounded work.

const pbkdf2 = promisify(crypto.pbkdf2);
const scrypt = promisify<crypto.BinaryLike, crypto.BinaryLike, number, crypto.ScryptOptions, Buffer>(crypto.scrypt);

const PBKDF2 = /^\$pbkdf2-(sha1|sha224|sha256|sha384|sha512)\$i=(\d+),l=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const SCRYPT = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/** Whether `stored` is a PBKDF2 or scrypt hash this module verifies, within its bounds. */
export function isImportedHash(stored: string): boolean {
  const p = PBKDF2.exec(stored);
  if (p) return Number(p[2]) >= 1 && Number(p[2]) <= 10_000_000;
  const s = SCRYPT.exec(stored);
  if (!s) return false;
  const [n, r, parallel] = [Number(s[1]), Number(s[2]), Number(s[3])];
  return n > 1 && (n & (n - 1)) === 0 && n <= 2 ** 20 && r >= 1 && r <= 32 && parallel >= 1 && parallel <= 16;
}

/** Whether the password hasher verifies `stored`: bcrypt, argon2, or one of the import formats above. */
export const isVerifiableHash = (stored: string): boolean =>
  /^(\$2[aby]\$|\$argon2(id|i|d)\$)/.test(stored) || isImportedHash(stored);

/** Verifies `password` against a PBKDF2 or scrypt hash, in constant time; false for anything else. */
export async function verifyImportedHash(password: string, stored: string): Promise<boolean> {
  if (!isImportedHash(stored)) return false;
  const p = PBKDF2.exec(stored);
  if (p) {
    const expected = Buffer.from(p[5]!, 'base64');
    const actual = await pbkdf2(password, Buffer.from(p[4]!, 'base64'), Number(p[2]), expected.length, p[1]!);
    return crypto.timingSafeEqual(actual, expected);
  }
  const s = SCRYPT.exec(stored)!;
  const [N, r, parallel] = [Number(s[1]), Number(s[2]), Number(s[3])];
  const expected = Buffer.from(s[5]!, 'base64');
  const actual = await scrypt(password, Buffer.from(s[4]!, 'base64'), expected.length, {
    N,
    r,
    p: parallel,
    maxmem: 256 * N * r + 1024 * 1024,
  });
  return crypto.timingSafeEqual(actual, expected);
}
