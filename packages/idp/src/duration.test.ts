import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.js';

describe('parseDuration', () => {
  it.each([
    ['15m', 900_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['2s', 2_000],
    ['72h', 259_200_000],
    [' 1.5h ', 5_400_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '15', 'm', '-5m', '1d', '5 m', 'abc', '1h-1m'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('adds up its parts', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(59), fc.nat(59), (h, m, s) => {
        expect(parseDuration(`${h}h${m}m${s}s`)).toBe(((h * 60 + m) * 60 + s) * 1000);
      }),
    );
  });
});
