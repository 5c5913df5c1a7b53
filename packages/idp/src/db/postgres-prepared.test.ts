import type { QueryConfig } from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { preparedRunner } from './postgres-prepared.js';

const statement = { name: 'portaal_test', sql: { sqlite: 'select ?', postgres: 'select $1::int as n' } };
const withCode = (code: string) => Object.assign(new Error(`refused ${code}`), { code });

/** A pool that answers every query with one row, after throwing the given errors for the first ones. */
function fakePool(...failures: Error[]) {
  const calls: QueryConfig[] = [];
  return {
    calls,
    async query(config: QueryConfig) {
      calls.push(config);
      const failure = failures.shift();
      if (failure) throw failure;
      return { rows: [{ n: config.values?.[0] }] };
    },
  };
}

describe('preparedRunner', () => {
  it('runs a fixed statement under its name, with PostgreSQL text and the parameters', async () => {
    const pool = fakePool();
    const read = preparedRunner(pool, () => {});
    expect(await read(statement, [7])).toEqual([{ n: 7 }]);
    expect(pool.calls).toEqual([{ name: 'portaal_test', text: 'select $1::int as n', values: [7] }]);
  });

  it.each(['26000', '42P05', '0A000'])(
    'runs it unnamed, then and from then on, once a pooler or a migration refuses prepared statements (%s)',
    async (code) => {
      const pool = fakePool(withCode(code));
      const onRefused = vi.fn();
      const read = preparedRunner(pool, onRefused);
      expect(await read(statement, [1])).toEqual([{ n: 1 }]);
      expect(await read(statement, [2])).toEqual([{ n: 2 }]);
      expect(pool.calls.map((call) => call.name)).toEqual(['portaal_test', undefined, undefined]);
      expect(onRefused).toHaveBeenCalledOnce();
    },
  );

  it('passes other errors on and keeps naming statements', async () => {
    const pool = fakePool(withCode('42601'), withCode('ECONNREFUSED'));
    const read = preparedRunner(pool, () => {});
    await expect(read(statement, [1])).rejects.toThrow('refused 42601');
    await expect(read(statement, [1])).rejects.toThrow('refused ECONNREFUSED');
    expect(await read(statement, [3])).toEqual([{ n: 3 }]);
    expect(pool.calls.every((call) => call.name === 'portaal_test')).toBe(true);
  });
});
