import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters } from './hidden-characters.js';

describe('names with hidden characters', () => {
  it.each([
    ['a right-to-left override', '\u202eevil\u202c'],
    ['a NUL byte', 'An\u0000na'],
    ['a line break', 'Anna\nJansen'],
    ['a zero-width space', 'An\u200bna'],
    ['a zero-width joiner between letters', 'An\u200dna'],
    ['a byte-order mark', '\ufeffAnna'],
  ])('refuses %s', (_case, name) => {
    expect(hasHiddenCharacters(name)).toBe(true);
  });

  it.each([
    ['plain letters', 'Anna'],
    ['accents and an apostrophe', "Zoë d'Hondt-Ağaoğlu"],
    ['a joined emoji family', 'Anna \u{1f468}\u200d\u{1f469}\u200d\u{1f467}'],
    ['a joined emoji with a variation selector', '\u2764\ufe0f\u200d\u{1f525}'],
  ])('accepts %s', (_case, name) => {
    expect(hasHiddenCharacters(name)).toBe(false);
  });
});
