import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isImportedHash, verifyImportedHash } from './imported-hashes.js';
import { createPasswordHasher } from './password-hasher.js';

// Kratos' import formats, made here as Kratos' comparator reads them: PBKDF2 with unpadded base64, scrypt with padded.
const raw = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
const salt = crypto.randomBytes(16);

function pbkdf2Hash(password: string, digest: string, iterations: number) {
  const key = crypto.pbkdf2Sync(password, salt, iterations, 32, digest);
  return `$pbkdf2-${digest}$i=${iterations},l=32$${raw(salt)}$${raw(key)}`;
}

function scryptHash(password: string, N: number) {
  const key = crypto.scryptSync(password, salt, 32, { N, r: 8, p: 1 });
  return `$scrypt$ln=${N},r=8,p=1$${salt.toString('base64')}$${key.toString('base64')}`;
}

describe("Kratos' imported password hashes", () => {
  it('verifies PBKDF2 of every digest Kratos takes, and refuses a wrong password', async () => {
    for (const digest of ['sha1', 'sha224', 'sha256', 'sha384', 'sha512']) {
      const stored = pbkdf2Hash('Tulpen-Molen-Gracht-7', digest, 10_000);
      expect(await verifyImportedHash('Tulpen-Molen-Gracht-7', stored), digest).toBe(true);
      expect(await verifyImportedHash('Tulpen-Molen-Gracht-8', stored), digest).toBe(false);
    }
  });

  it('verifies scrypt, and keeps its cost within bounds', async () => {
    const stored = scryptHash('Tulpen-Molen-Gracht-7', 16_384);
    expect(await verifyImportedHash('Tulpen-Molen-Gracht-7', stored)).toBe(true);
    expect(await verifyImportedHash('tulpen-Molen-Gracht-7', stored)).toBe(false);
    expect(isImportedHash(stored.replace('ln=16384', 'ln=2097152'))).toBe(false);
    expect(isImportedHash(stored.replace('ln=16384', 'ln=10000'))).toBe(false);
    expect(isImportedHash(pbkdf2Hash('x', 'sha256', 1).replace('i=1,', 'i=20000000,'))).toBe(false);
    expect(isImportedHash('$md5$abc')).toBe(false);
  });

  it('signs in with one through the password hasher, which then asks for argon2id in its place', async () => {
    const hasher = createPasswordHasher({ concurrency: 2, queueLimit: 4 });
    const stored = pbkdf2Hash('Tulpen-Molen-Gracht-7', 'sha256', 10_000);
    expect(await hasher.verify('Tulpen-Molen-Gracht-7', stored)).toBe(true);
    expect(await hasher.verify('iets anders', stored)).toBe(false);
    expect(hasher.needsRehash(stored)).toBe(true);
  });
});
