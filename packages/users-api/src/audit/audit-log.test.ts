import type { Db } from '@portaal/idp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../test-support/migrated-database.js';
import { createAuditLog } from './audit-log.js';

let db: Db;

beforeEach(async () => {
  db = await migratedDatabase();
});

afterEach(async () => {
  await db.close();
});

describe('the audit log', () => {
  it('keeps the order of entries written within one millisecond, in every listing', async () => {
    const instant = new Date('2026-11-26T09:00:00.000Z');
    const audit = createAuditLog(db.kysely, () => instant);
    const actions = Array.from({ length: 40 }, (_, i) => `step.${i}`);
    for (const action of actions) {
      await audit.record({ organisationId: 'voorbeeldstad', actorId: 'p1', action, result: 'success' });
    }
    const newestFirst = await audit.list('voorbeeldstad', { size: 100 });
    expect(newestFirst.map((entry) => entry.action)).toEqual([...actions].reverse());
    // Page by page, from where the last page ended.
    const firstPage = await audit.list('voorbeeldstad', { size: 15 });
    const secondPage = await audit.list('voorbeeldstad', { size: 15, before: firstPage.at(-1) });
    expect([...firstPage, ...secondPage].map((entry) => entry.action)).toEqual([...actions].reverse().slice(0, 30));
    expect((await audit.about('p1')).map((entry) => entry.action)).toEqual(actions);
    const all = [];
    for await (const entry of audit.all()) all.push(entry.action);
    expect(all).toEqual(actions);
  });
});
