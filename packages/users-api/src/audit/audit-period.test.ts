import { describe, expect, it } from 'vitest';
import { endOfDutchDay, startOfDutchDay } from './audit-period.js';

describe('days in the Netherlands', () => {
  it('start at midnight in winter and summer time, and end at the next midnight', () => {
    expect(startOfDutchDay('2026-01-15')).toBe('2026-01-14T23:00:00.000Z');
    expect(startOfDutchDay('2026-07-01')).toBe('2026-06-30T22:00:00.000Z');
    expect(endOfDutchDay('2026-07-01')).toBe('2026-07-01T22:00:00.000Z');
  });

  it('last 23 or 25 hours on the days the clocks change', () => {
    const hours = (day: string) => (Date.parse(endOfDutchDay(day)!) - Date.parse(startOfDutchDay(day)!)) / 3_600_000;
    expect(hours('2026-03-29')).toBe(23);
    expect(hours('2026-10-25')).toBe(25);
    expect(hours('2026-12-31')).toBe(24);
  });

  it('are not made of what is not a day', () => {
    for (const text of ['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1', '', 'gisteren', '2026-01-01T00:00']) {
      expect(startOfDutchDay(text), text).toBeUndefined();
    }
  });
});
