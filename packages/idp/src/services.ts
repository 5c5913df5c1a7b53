import type { IdpContext } from './context.js';
import type { UiText } from './ui/messages.js';

/** Hashing of passwords, bounded in concurrency (credentials/password). */
export interface PasswordHashing {
  hash(password: string): Promise<string>;
  verify(password: string, storedHash: string): Promise<boolean>;
  needsRehash(storedHash: string): boolean;
  /** Costs what a verify costs, for unknown identifiers. */
  dummyVerify(password: string): Promise<void>;
  /** Every slot busy and the queue full: the next hash or verify would be refused. */
  saturated(): boolean;
  /**
   * Every slot busy and half the queue or more taken: a sign-in started now would likely meet a full queue at its
   * submit, after its flow was written, so none is started (docs/security.md#48-expensive-work-is-bounded).
   */
  crowded(): boolean;
}

export interface PasswordPolicy {
  /** The Kratos message of the first rule the password breaks, or undefined. */
  validate(password: string, identifiers: string[]): Promise<UiText | undefined>;
}

/** Persistent failure counters with a temporary lock (throttle/). */
export interface FailureThrottle {
  /** Whether the key (or the other key) is locked now. */
  isLocked(key: string, orKey?: string): Promise<boolean>;
  /** When the lock on the key ends, or undefined when it is not locked. */
  lockedUntil(key: string): Promise<string | undefined>;
  recordFailure(
    key: string,
    limit: number,
    windowMs: number,
    lockMs: number,
  ): Promise<{ locked: boolean; failures: number }>;
  reset(key: string): Promise<void>;
}

export interface MailQueue {
  /** Queues a mail in the given transaction (or the database); the courier sends it. */
  enqueue(
    db: import('./identities/identity-repository.js').DbExecutor,
    mail: { to: string; subject: string; text: string; templateType: string },
  ): Promise<void>;
}

/** Everything route modules need, built once by the provider. */
export interface IdpServices {
  ctx: IdpContext;
  passwords: PasswordHashing;
  passwordPolicy: PasswordPolicy;
  throttle: FailureThrottle;
  mail: MailQueue;
}
