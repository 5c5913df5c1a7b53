import { isImportedHash, verifyImportedHash } from './imported-hashes.js';
import { Algorithm, hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { verify as bcryptVerify } from '@node-rs/bcrypt';
import crypto from 'node:crypto';
import { HttpError } from '../../errors/herodot.js';
import { kratosErrors } from '../../errors/kratos-errors.js';
import type { PasswordHashing } from '../../services.js';

/** argon2id's cost: memory in KiB, passes over it, lanes (Kratos' `hashers.argon2` memory, iterations, parallelism). */
export interface Argon2Cost {
  memoryKib: number;
  iterations: number;
  parallelism: number;
}

/** OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1, the default. */
export const OWASP_ARGON2: Argon2Cost = { memoryKib: 19456, iterations: 2, parallelism: 1 };

/** OWASP's equally strong choices, a lane each: more memory and fewer passes, or the other way round. */
const OWASP_CHOICES: readonly (readonly [memoryKib: number, iterations: number])[] = [
  [47104, 1],
  [19456, 2],
  [12288, 3],
  [9216, 4],
  [7168, 5],
];

/** Whether a cost is below every one of OWASP's choices: fit for tests, not for people's passwords. */
export const weakerThanOwasp = (cost: Argon2Cost): boolean =>
  !OWASP_CHOICES.some(([memoryKib, iterations]) => cost.memoryKib >= memoryKib && cost.iterations >= iterations);

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
  argon2?: Argon2Cost;
}): PasswordHashing & { inFlight(): number } {
  const cost = options.argon2 ?? OWASP_ARGON2;
  const params = {
    algorithm: Algorithm.Argon2id,
    memoryCost: cost.memoryKib,
    timeCost: cost.iterations,
    parallelism: cost.parallelism,
  };
  // A hash made at another cost is made again at this one at the next sign-in.
  const costMark = `$m=${cost.memoryKib},t=${cost.iterations},p=${cost.parallelism}$`;
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
      return bounded(() => argon2Hash(password, params));
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
      return !(stored.startsWith('$argon2id$') && stored.includes(costMark));
    },
    async dummyVerify(password) {
      try {
        dummyHash ??= argon2Hash(crypto.randomBytes(16).toString('hex'), params);
        const stored = await dummyHash;
        await bounded(() => argon2Verify(stored, password.slice(0, MAX_LENGTH)));
      } catch (error) {
        if (error instanceof HttpError) throw error;
      }
    },
  };
}
