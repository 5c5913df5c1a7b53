import { describe, expect, it } from 'vitest';
import { longDate, longDateTime, timeOfDay } from './dates';

describe('dates as the portal shows them', () => {
  it('writes them in Dutch, long, in Dutch time whatever the browser’s zone (winter +1, summer +2)', () => {
    expect(longDate('2026-03-01T12:00:00Z')).toBe('1 maart 2026');
    expect(longDateTime('2026-03-01T12:00:00Z')).toBe('1 maart 2026 om 13:00');
    expect(longDateTime(new Date('2026-07-01T08:05:00Z'))).toBe('1 juli 2026 om 10:05');
    expect(timeOfDay('2026-07-01T08:05:00Z')).toBe('10:05');
  });

  it('puts a moment just before midnight UTC on the next day, as a Dutch clock shows it', () => {
    expect(longDate('2026-11-29T23:30:00Z')).toBe('30 november 2026');
    expect(longDateTime('2026-11-29T23:30:00Z')).toBe('30 november 2026 om 00:30');
  });
});
