import { describe, expect, it } from 'vitest';
import { searchEntries, sortEntries } from './user-order.js';

const entry = (first: string, email: string, admin: boolean, created: string) => ({
  traits: { email, name: { first, last: 'Test' } },
  created_at: created,
  userType: { id: admin ? 'administrator' : 'analyst' },
});
const entries = [
  entry('bram', 'b@x.nl', false, '2026-01-02T00:00:00Z'),
  entry('Anna', 'z@x.nl', false, '2026-03-01T00:00:00Z'),
  entry('Zoë', 'a@x.nl', true, '2025-12-01T00:00:00Z'),
  entry('Élodie', 'E@x.nl', false, '2026-02-01T00:00:00Z'),
];
const firsts = (list: readonly { traits: { name: { first: string } } }[]) => list.map((e) => e.traits.name.first);

describe('the orders of the overview', () => {
  it('puts administrators first by default, then by name', () => {
    expect(firsts(sortEntries(entries, 'type'))).toEqual(['Zoë', 'Anna', 'bram', 'Élodie']);
  });

  it('sorts by name and e-mail in Dutch order, case and accents aside, and newest account first', () => {
    expect(firsts(sortEntries(entries, 'name'))).toEqual(['Anna', 'bram', 'Élodie', 'Zoë']);
    expect(sortEntries(entries, 'email').map((e) => e.traits.email)).toEqual(['a@x.nl', 'b@x.nl', 'E@x.nl', 'z@x.nl']);
    expect(firsts(sortEntries(entries, 'created'))).toEqual(['Anna', 'Élodie', 'bram', 'Zoë']);
  });

  it('sorts by last sign-in, the most recent first, then who never signed in and the invited by name', () => {
    const signedIn = [
      { ...entries[0]!, lastSignInAt: '2026-11-20T08:00:00.000Z' },
      { ...entries[1]!, lastSignInAt: null },
      { ...entries[2]!, lastSignInAt: '2026-11-26T17:30:00.000Z' },
      entries[3]!,
    ];
    expect(firsts(sortEntries(signedIn, 'last_sign_in'))).toEqual(['Zoë', 'bram', 'Anna', 'Élodie']);
  });

  it('sorts a copy and keeps the order of equal keys', () => {
    const twins = [entry('Jan', 'j2@x.nl', false, 't'), entry('jan', 'j1@x.nl', false, 't')];
    expect(sortEntries(twins, 'name')).toEqual(twins);
    expect(sortEntries(twins, 'name')).not.toBe(twins);
  });
});

describe('the search of the overview', () => {
  it('finds a part of the name or the address, case aside, keeping the order', () => {
    expect(firsts(searchEntries(entries, 'ANNA'))).toEqual(['Anna']);
    expect(firsts(searchEntries(entries, 'b@X'))).toEqual(['bram']);
    expect(firsts(searchEntries(entries, 'a test'))).toEqual(['Anna']);
    expect(firsts(searchEntries(entries, 'élo'))).toEqual(['Élodie']);
  });

  it('finds everyone for a blank search', () => {
    expect(searchEntries(entries, '  ')).toBe(entries);
  });
});
