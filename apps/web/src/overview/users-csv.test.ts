import { describe, expect, it } from 'vitest';
import { usersCsvName } from './users-csv';

describe('usersCsvName', () => {
  it('names the organisation and the day', () => {
    expect(usersCsvName('voorbeeldstad', new Date(2026, 10, 3))).toBe('gebruikers-voorbeeldstad-2026-11-03.csv');
  });
});
