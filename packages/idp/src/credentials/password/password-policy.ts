import crypto from 'node:crypto';
import { messages } from '../../ui/messages.js';
import type { PasswordPolicy } from '../../services.js';
import { commonPasswordList } from './common-password-list.js';
import { tooSimilar } from './similarity.js';

const MAX_LENGTH = 1000;
/** Words that people in this programme reach for; refused alone or with digits and punctuation around them. */
const CONTEXT_WORDS = ['gemeente', 'datavoorziening', 'datavoorzieningen', 'wachtwoord', 'welkom', 'portaal', 'vng'];

export function loadCommonPasswords(): Set<string> {
  return new Set(commonPasswordList.split('\n'));
}

const stripDecoration = (password: string) => password.toLowerCase().replace(/^[\d\W_]+|[\d\W_]+$/gu, '');

/**
 * Rules in Kratos' order: length, similarity to the identifiers, breached/common list, then the optional HIBP range
 * check. Length counts characters (code points), not bytes as Kratos does, so multibyte passwords are not penalised.
 */
export function createPasswordPolicy(options: {
  minLength: number;
  hibpUrl?: URL;
  commonPasswords?: Set<string>;
}): PasswordPolicy {
  const common = options.commonPasswords ?? loadCommonPasswords();
  return {
    async validate(password, identifiers) {
      const length = [...password].length;
      if (length < options.minLength) return messages.passwordTooShort(options.minLength, length);
      if (length > MAX_LENGTH) return messages.passwordPolicy('it is too long');
      for (const identifier of identifiers) {
        const local = identifier.split('@')[0] ?? identifier;
        if (tooSimilar(identifier, password) || (local.length >= 4 && tooSimilar(local, password)))
          return messages.passwordTooSimilar();
      }
      const lower = password.toLowerCase();
      if (
        common.has(lower) ||
        CONTEXT_WORDS.includes(stripDecoration(password)) ||
        common.has(stripDecoration(password))
      ) {
        return messages.passwordBreached(1);
      }
      if (options.hibpUrl) {
        const count = await breachCount(options.hibpUrl, password);
        if (count > 0) return messages.passwordBreached(count);
      }
      return undefined;
    },
  };
}

/** Have I Been Pwned k-anonymity range query; fails open (0) on any network problem, never follows redirects. */
async function breachCount(base: URL, password: string): Promise<number> {
  const sha1 = crypto.createHash('sha1').update(password).digest('hex').toUpperCase();
  try {
    const response = await fetch(
      new URL(`range/${sha1.slice(0, 5)}`, base.toString().endsWith('/') ? base : `${base}/`),
      {
        redirect: 'error',
        signal: AbortSignal.timeout(3000),
      },
    );
    if (!response.ok) return 0;
    for (const line of (await response.text()).split('\n')) {
      const [suffix, count] = line.trim().split(':');
      if (suffix === sha1.slice(5)) return Number(count) || 0;
    }
  } catch {
    return 0;
  }
  return 0;
}
