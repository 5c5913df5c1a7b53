import { describe, expect, it } from 'vitest';
import { placeEntries, searchEntries, SORT_KEYS, sortByLastSignIn, sortEntries } from './user-order.js';

const entry = (first: string, email: string, admin: boolean, created: string, id = `id-${email}`) => ({
  id,
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

  it('sorts a copy and puts equal keys in the order of their ids, whichever order they came in', () => {
    const twins = [entry('Jan', 'j2@x.nl', false, 't', 'b'), entry('jan', 'j1@x.nl', false, 't', 'a')];
    expect(sortEntries(twins, 'name')).toEqual([twins[1], twins[0]]);
    expect(sortEntries([twins[1]!, twins[0]!], 'name')).toEqual([twins[1], twins[0]]);
    expect(sortEntries(twins, 'name')).not.toBe(twins);
  });

  it('sorts the name order by last sign-in as a sort by last sign-in does', () => {
    const times = [null, undefined, '2026-11-20T08:00:00.000Z', '2026-11-26T17:30:00.000Z'];
    const signedIn = Array.from({ length: 60 }, (_, i) => ({
      ...entry(['Anna', 'anna', 'Bram', 'Zoë'][i % 4]!, `p${i}@x.nl`, false, 't', `id-${(i * 37) % 60}`),
      lastSignInAt: times[(i * 7) % 4],
    }));
    expect(sortByLastSignIn(sortEntries(signedIn, 'name'))).toEqual(sortEntries(signedIn, 'last_sign_in'));
  });

  it('places changed entries in a kept order where a sort of the whole would put them', () => {
    const names = ['Anna', 'anna', 'Bram', 'Cor', 'Daan', 'Eva', 'Élodie', 'Zoë', 'Jan', 'jan'];
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const person = (i: number) =>
      entry(
        names[Math.floor(random() * names.length)]!,
        `${names[Math.floor(random() * names.length)]}${i % 3}@x.nl`,
        random() < 0.2,
        `2026-0${1 + Math.floor(random() * 3)}-01T00:00:00Z`,
        `id-${i}`,
      );
    for (let round = 0; round < 50; round += 1) {
      const people = Array.from({ length: 40 }, (_, i) => person(i));
      const changed = people.filter(() => random() < 0.2).map((p) => p.id);
      const after = people
        .filter((p) => !changed.includes(p.id) || random() < 0.7)
        .map((p) => (changed.includes(p.id) ? person(Number(p.id.slice(3))) : p));
      const added = after.filter((p) => changed.includes(p.id));
      for (const key of SORT_KEYS) {
        const kept = sortEntries(people, key);
        expect(placeEntries(kept, key, new Set(changed), added), `${key} round ${round}`).toEqual(
          sortEntries(after, key),
        );
      }
    }
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
