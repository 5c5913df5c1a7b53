import { isImportedHash, verifyImportedHash } from './imported-hashes.js';
import { Algorithm, hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { verify as bcryptVerify } from '@node-rs/bcrypt';
import crypto from 'node:crypto';
import { HttpError } from '../../errors/herodot.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import type { PasswordHashing } from '../../services.js';

// OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1.
const PARAMS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const PARAM_MARK = '$m=19456,t=2,p=1$';
const MAX_LENGTH = 1000;

export class HashingBusyError extends HttpError {
  readonly retryAfterSeconds = 2;
  /** How long the refusal is held before it is sent (see `http/error-handler.ts`). */
  readonly answerAfterMs = 500;
  constructor() {
    super({ code: 503, reason: 'The server is busy, please try again in a moment.' });
  }
}

/**
 * argon2id on libuv's thread pool with at most `concurrency` hashes at once and a bounded queue, so a burst of
 * sign-ins answers 503 quickly instead of queueing without end (docs/security.md#48-expensive-work-is-bounded).
 */
export function createPasswordHasher(options: {
  concurrency: number;
  queueLimit: number;
}): PasswordHashing & { inFlight(): number } {
  let running = 0;
  // A hash of a random string, made once: verifying against it costs what a real verify costs.
  let dummyHash: Promise<string> | undefined;
  const waiting: (() => void)[] = [];

  async function bounded<T>(work: () => Promise<T>): Promise<T> {
    if (running >= options.concurrency) {
      if (waiting.length >= options.queueLimit) throw new HashingBusyError();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running += 1;
    }
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  }

  return {
    inFlight: () => running,
    saturated: () => running >= options.concurrency && waiting.length >= options.queueLimit,
    crowded: () => running >= options.concurrency && waiting.length >= Math.ceil(options.queueLimit / 2),
    hash(password) {
      if (password.length > MAX_LENGTH) throw kratosErrors.badRequest('The password is too long.');
      return bounded(() => argon2Hash(password, PARAMS));
    },
    async verify(password, stored) {
      if (password.length > MAX_LENGTH) return false;
      try {
        if (/^\$2[aby]\$/.test(stored)) return await bounded(() => bcryptVerify(password, stored));
        if (stored.startsWith('$argon2')) return await bounded(() => argon2Verify(stored, password));
        if (isImportedHash(stored)) return await bounded(() => verifyImportedHash(password, stored));
      } catch (error) {
        if (error instanceof HttpError) throw error;
      }
      return false;
    },
    needsRehash(stored) {
      return !(stored.startsWith('$argon2id$') && stored.includes(PARAM_MARK));
    },
    async dummyVerify(password) {
      try {
        dummyHash ??= argon2Hash(crypto.randomBytes(16).toString('hex'), PARAMS);
        const stored = await dummyHash;
        await bounded(() => argon2Verify(stored, password.slice(0, MAX_LENGTH)));
      } catch (error) {
        if (error instanceof HttpError) throw error;
      }
    },
  };
}
