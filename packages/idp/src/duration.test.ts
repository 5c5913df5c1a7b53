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

describe('parseDuration, edge cases', () => {
  it.each([
    ['0s', 0],
    ['1.5ms', 2],
    ['0.25s', 250],
    ['1m1ms', 60_001],
    ['30m1h', 5_400_000],
    ['1h1h', 7_200_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['1.h', '1..5s', '1H', '1hm', 'h1', '1s ms', '1e3ms', '+5m'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  const format = (ms: number) => {
    const parts: [number, string][] = [
      [Math.floor(ms / 3_600_000), 'h'],
      [Math.floor(ms / 60_000) % 60, 'm'],
      [Math.floor(ms / 1000) % 60, 's'],
      [ms % 1000, 'ms'],
    ];
    return (
      parts
        .filter(([n]) => n > 0)
        .map(([n, unit]) => `${n}${unit}`)
        .join('') || '0ms'
    );
  };

  it('reads back what a Go-style formatter writes', () => {
    fc.assert(
      fc.property(fc.nat(10 * 24 * 3_600_000), (ms) => {
        expect(parseDuration(format(ms))).toBe(ms);
      }),
    );
  });

  it('ignores surrounding whitespace and never returns a negative or fractional number', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseDuration(text);
        if (parsed !== undefined) {
          expect(Number.isInteger(parsed) && parsed >= 0).toBe(true);
          expect(parseDuration(` ${text}\n`)).toBe(parsed);
        }
      }),
    );
  });
});
