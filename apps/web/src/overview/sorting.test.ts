import { describe, expect, it } from 'vitest';
import { longDate, longDateTime, SORT_OPTIONS } from './sorting';

describe('overview sorting options and dates', () => {
  it('offers the four orders of the spec and the last sign-in (issue 30), by their Dutch names', () => {
    expect(SORT_OPTIONS.map((option) => option.label)).toEqual([
      'Naam',
      'E-mailadres',
      'Type gebruiker',
      'Account aangemaakt',
      'Laatst ingelogd',
    ]);
  });
  it('writes dates in Dutch long format', () => {
    expect(longDate('2026-03-01T12:00:00Z')).toBe('1 maart 2026');
    expect(longDateTime('2026-03-01T12:00:00Z')).toMatch(/^1 maart 2026 om \d\d:00$/);
  });
});
