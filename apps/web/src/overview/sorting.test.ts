import { describe, expect, it } from 'vitest';
import { SORT_OPTIONS } from './sorting';

describe('overview sorting options', () => {
  it('offers the four orders of the spec and the last sign-in (issue 30), by their Dutch names', () => {
    expect(SORT_OPTIONS.map((option) => option.label)).toEqual([
      'Naam',
      'E-mailadres',
      'Type gebruiker',
      'Account aangemaakt',
      'Laatst ingelogd',
    ]);
  });
});
