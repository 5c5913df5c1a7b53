import type { Db } from '@portaal/idp';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../test-support/migrated-database.js';
import { ANNOUNCE_EVERY_MS, signingKeyAgreement } from './signing-key-agreement.js';

// The fault: two processes on one database, each with its own data directory, each generated its own signing key; a
// token signed by one failed at a service that had fetched the other's keys (docs/operations.md#oidc-signing-keys).

let db: Db;
let at: number;
let lines: string[];
/** The log lines' messages, as pino's `(object, message)` or `(message)` calls give them. */
const record = (first: unknown, second?: unknown) => void lines.push(String(second ?? first));
const log = { info: record, warn: record, error: record } as unknown as FastifyBaseLogger;
const processWith = (kids: string[]) => signingKeyAgreement(db.kysely, kids, log, () => at);

beforeEach(async () => {
  db = await migratedDatabase();
  at = Date.parse('2026-11-26T09:00:00.000Z');
  lines = [];
});
afterEach(() => db.close());

describe('the signing key agreement between processes', () => {
  it('refuses in both processes while their keys differ, and says so once', async () => {
    const first = processWith(['a']);
    const second = processWith(['b']);
    await first.announce();
    expect(first.agrees()).toBe(true);
    await second.announce();
    await first.announce();
    await second.announce();
    expect([first.agrees(), second.agrees()]).toEqual([false, false]);
    expect(lines.filter((line) => line.startsWith('OpenID Connect refused'))).toHaveLength(2);
  });

  it('accepts processes that share a key, as during a rotation rolled out one by one', async () => {
    const rotated = processWith(['new', 'old']);
    const notYet = processWith(['old']);
    await rotated.announce();
    await notYet.announce();
    await rotated.announce();
    expect([rotated.agrees(), notYet.agrees()]).toEqual([true, true]);
  });

  it('serves again once the other process has stopped or is no longer heard of', async () => {
    const first = processWith(['a']);
    const second = processWith(['b']);
    await second.announce();
    await first.announce();
    expect(first.agrees()).toBe(false);
    at += 4 * ANNOUNCE_EVERY_MS;
    await first.announce();
    expect(first.agrees()).toBe(true);
    expect(lines).toContain('OpenID Connect served again: every running process publishes the same signing keys');

    const third = processWith(['c']);
    await third.announce();
    await first.announce();
    expect(first.agrees()).toBe(false);
    await third.start()();
    await first.announce();
    expect(first.agrees()).toBe(true);
  });

  it('withdraws a stopping process even when the database is busy for a moment', async () => {
    const first = processWith(['a']);
    const second = processWith(['b']);
    await second.announce();
    await first.announce();
    expect(first.agrees()).toBe(false);
    const stopSecond = second.start();
    // The table is out of reach for half a second, as a SQLite file another process writes is.
    await sql`alter table oidc_key_announcements rename to oidc_key_announcements_away`.execute(db.kysely);
    const stopping = stopSecond();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await sql`alter table oidc_key_announcements_away rename to oidc_key_announcements`.execute(db.kysely);
    await stopping;
    await first.announce();
    expect(first.agrees()).toBe(true);
  });
});
