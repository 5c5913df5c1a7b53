import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { levenshtein, longestCommonSubstring, tooSimilar } from './similarity.js';

describe('similarity', () => {
  it('computes Levenshtein distances', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('gracht', 'gracht')).toBe(0);
  });

  it('is a metric: symmetric and zero only for equal strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (a, b) => {
        expect(levenshtein(a, b)).toBe(levenshtein(b, a));
        expect(levenshtein(a, b) === 0).toBe(a === b);
      }),
    );
  });

  it('finds the longest common substring', () => {
    expect(longestCommonSubstring('voorbeeldstad', 'mijnstadje')).toBe(4);
    expect(longestCommonSubstring('abc', 'xyz')).toBe(0);
  });

  it('flags passwords close to the identifier, case-insensitively', () => {
    expect(tooSimilar('anna@example.nl', 'ANNA@example.nl!')).toBe(true);
    expect(tooSimilar('anna.de.vries', 'anna.de.vries2024')).toBe(true);
    expect(tooSimilar('anna@example.nl', 'Zonnebloem-Kanaal-Fiets-42')).toBe(false);
  });

  it('skips the check above 256 bytes, as Kratos does', () => {
    const long = 'a'.repeat(300);
    expect(tooSimilar(long, long)).toBe(false);
  });
});
