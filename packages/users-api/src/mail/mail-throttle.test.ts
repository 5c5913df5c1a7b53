import type { Db } from '@portaal/idp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../test-support/migrated-database.js';
import { RetryLaterError } from '../api-error.js';
import { createMailThrottle, MAIL_LIMITS, type MailThrottle } from './mail-throttle.js';

// The attack: an administrator (or a script with their session) submits the new-user form for one address again and
// again, and every submit mailed the person: twelve submits, twelve mails. The limits hold per recipient address and
// per organisation, in the database (docs/security.md#49-no-mail-bombing).

let db: Db;
let at: number;
let throttle: MailThrottle;

beforeEach(async () => {
  db = await migratedDatabase();
  at = Date.parse('2026-11-26T09:00:00.000Z');
  throttle = createMailThrottle(db.kysely, () => new Date(at));
});
afterEach(() => db.close());

/** What a take answers: 'sent', or the refusal's status, id and Retry-After seconds. */
async function attempt(recipient: string, organisation = 'voorbeeldstad') {
  try {
    await throttle.take(recipient, organisation);
    return 'sent';
  } catch (error) {
    if (!(error instanceof RetryLaterError)) throw error;
    return `${error.code} ${error.id} ${error.retryAfterSeconds}`;
  }
}

describe('the mail throttle', () => {
  it('lets three mails to one address through in 15 minutes, then answers 429 until the window ends', async () => {
    const answers = [];
    for (let n = 0; n < 5; n++) {
      answers.push(await attempt(n % 2 ? 'Anne@Voorbeeldstad.nl ' : 'anne@voorbeeldstad.nl'));
      at += 60_000;
    }
    expect(answers).toEqual([
      'sent',
      'sent',
      'sent',
      '429 mail_throttled_recipient 720',
      '429 mail_throttled_recipient 660',
    ]);
    // Refusals took nothing: the window still ends 15 minutes after the first mail.
    at = Date.parse('2026-11-26T09:15:00.000Z');
    expect(await attempt('anne@voorbeeldstad.nl')).toBe('sent');
    // Another address has a limit of its own.
    expect(await attempt('bert@voorbeeldstad.nl')).toBe('sent');
  });

  it('limits an organisation over all addresses, and a refusal takes nothing from the address', async () => {
    for (let n = 0; n < MAIL_LIMITS.organisation.limit; n++)
      expect(await attempt(`persoon${n}@voorbeeldstad.nl`)).toBe('sent');
    expect(await attempt('nieuw@voorbeeldstad.nl')).toBe('429 mail_throttled_organisation 3600');
    // The refused mail took nothing from the address: three more may go to it, from another organisation.
    for (let n = 0; n < MAIL_LIMITS.recipient.limit; n++)
      expect(await attempt('nieuw@voorbeeldstad.nl', 'dego')).toBe('sent');
    expect(await attempt('nieuw@voorbeeldstad.nl', 'dego')).toMatch(/^429 mail_throttled_recipient/);
  });

  it('keeps addresses only as hashes', async () => {
    await attempt('anne@voorbeeldstad.nl');
    const keys = (await db.kysely
      .selectFrom('mail_throttle' as never)
      .selectAll()
      .execute()) as { key: string }[];
    expect(keys.map((row) => row.key).sort()).toEqual([
      'organisation:voorbeeldstad',
      expect.stringMatching(/^recipient:[0-9a-f]{64}$/),
    ]);
  });
});
