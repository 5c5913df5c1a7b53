import { describe, expect, it } from 'vitest';
import { postgresChangeMark } from './postgres-change-mark.js';

/** A pool whose queries wait until the test answers them, in order, each with the mark it is given. */
function heldPool() {
  const pending: { resolve(rows: { rows: unknown[] }): void; reject(error: unknown): void }[] = [];
  return {
    sent: () => pending.length,
    answer(index: number, mark: string) {
      pending[index]!.resolve({ rows: [{ n: mark }] });
    },
    fail(index: number, error: Error) {
      pending[index]!.reject(error);
    },
    query: (text: string) => {
      expect(text).toContain('from check_marks');
      return new Promise<{ rows: unknown[] }>((resolve, reject) => pending.push({ resolve, reject }));
    },
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the change mark on PostgreSQL', () => {
  it('answers the callers that ask while a query runs with one next query, sent after they asked', async () => {
    const pool = heldPool();
    const mark = postgresChangeMark(pool);
    const first = mark();
    expect(pool.sent()).toBe(1);
    // Asked after the first query was sent: a commit that ended meanwhile must count, so they wait for the next.
    const later = [mark(), mark(), mark()];
    expect(pool.sent(), 'no second query while the first runs').toBe(1);
    pool.answer(0, '100');
    expect(await first).toBe('100');
    await settled();
    expect(pool.sent()).toBe(2);
    pool.answer(1, '102');
    expect(await Promise.all(later)).toEqual(['102', '102', '102']);
  });

  it('gives a failed query to the callers it was for, and asks again for the next ones', async () => {
    const pool = heldPool();
    const mark = postgresChangeMark(pool);
    const failing = mark();
    pool.fail(0, new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    const next = mark();
    expect(pool.sent()).toBe(2);
    pool.answer(1, '5');
    expect(await next).toBe('5');
  });
});
