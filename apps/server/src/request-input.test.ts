import { describe, expect, it } from 'vitest';
import { holdsNul, nestsDeeperThan } from './request-input.js';

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[[{{{{', b: 'x\\"[[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(`${'['.repeat(101)}${']'.repeat(101)}`, 100)).toBe(true);
    expect(nestsDeeperThan(`${'['.repeat(100)}${']'.repeat(100)}`, 100)).toBe(false);
  });
});

describe('holdsNul', () => {
  it('finds U+0000 in nested strings and keys, and nothing in clean input', () => {
    expect(holdsNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(holdsNul({ 'k\u0000': 1 })).toBe(true);
    expect(holdsNul('\u0000')).toBe(true);
    expect(holdsNul({ a: ['\\u0000', 1, null, true], b: 'é' })).toBe(false);
    expect(holdsNul(undefined)).toBe(false);
  });
});
