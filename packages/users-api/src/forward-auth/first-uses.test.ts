import { describe, expect, it } from 'vitest';
import { createFirstUses } from './first-uses.js';

describe('createFirstUses', () => {
  it('says first once per session and service, again after a refusal forgot it', () => {
    const uses = createFirstUses();
    expect(uses.first('s1', 'kaart')).toBe(true);
    expect(uses.first('s1', 'kaart')).toBe(false);
    expect(uses.first('s1', 'atlas')).toBe(true);
    expect(uses.first('s2', 'kaart')).toBe(true);
    uses.forget('s1', 'kaart');
    expect(uses.first('s1', 'kaart')).toBe(true);
  });

  it('forgets the oldest pair beyond its limit', () => {
    const uses = createFirstUses(2);
    uses.first('a', 'x');
    uses.first('b', 'x');
    uses.first('c', 'x');
    expect(uses.first('b', 'x')).toBe(false);
    expect(uses.first('a', 'x')).toBe(true);
  });
});
