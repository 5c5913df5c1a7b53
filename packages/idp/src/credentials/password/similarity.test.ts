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

describe('similarity, edge cases', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(levenshtein('😀', '😃')).toBe(1);
    expect(longestCommonSubstring('a😀b', 'x😀y')).toBe(1);
  });

  it('satisfies the triangle inequality and is bounded by the longer length', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        (a, b, c) => {
          expect(levenshtein(a, c)).toBeLessThanOrEqual(levenshtein(a, b) + levenshtein(b, c));
          expect(levenshtein(a, b)).toBeLessThanOrEqual(Math.max([...a].length, [...b].length));
          expect(longestCommonSubstring(a, b)).toBe(longestCommonSubstring(b, a));
          expect(longestCommonSubstring(a, a + b)).toBe([...a].length);
        },
      ),
    );
  });

  it('uses distance under 5 and a common substring over half the password as thresholds', () => {
    // distance exactly 5, common substring 'abcd' = 4/9 of the password: not similar
    expect(tooSimilar('abcd', 'abcdvwxyz')).toBe(false);
    // distance 4: similar
    expect(tooSimilar('abcd', 'abcdwxyz')).toBe(true);
    // common substring 'marieke' is 7 of 11 characters (more than half), distance well over 5
    expect(tooSimilar('qqqqqqqqqqqqqqqqmarieke', 'marieke1234')).toBe(true);
    // 7 of 14 is exactly half, which is not more than half
    expect(tooSimilar('qqqqqqqqqqqqqqqqmarieke', 'marieke1234567')).toBe(false);
  });

  it('never flags an empty password and runs up to 256 bytes', () => {
    expect(tooSimilar('anna', '')).toBe(false);
    const edge = 'b'.repeat(256);
    expect(tooSimilar(edge, edge)).toBe(true);
    expect(tooSimilar('é'.repeat(129), 'é'.repeat(129))).toBe(false);
  });
});
