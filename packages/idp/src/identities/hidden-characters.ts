const HIDDEN = /[\p{Cc}\p{Cf}]/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const ZERO_WIDTH_JOINER = '\u200d';
const VARIATION_SELECTOR = '\ufe0f';

/**
 * Whether a name holds control or format characters (Unicode Cc, Cf): a right-to-left override makes
 * '\u202eevil' read as 'live' in lists and mails. The zero-width joiner is allowed between two emoji, where it
 * joins them into one (a family, a profession).
 */
export function hasHiddenCharacters(text: string): boolean {
  const chars = [...text];
  return chars.some((char, index) => {
    if (!HIDDEN.test(char)) return false;
    if (char !== ZERO_WIDTH_JOINER) return true;
    const before = chars[index - 1] === VARIATION_SELECTOR ? chars[index - 2] : chars[index - 1];
    return !(before && PICTOGRAPHIC.test(before) && chars[index + 1] && PICTOGRAPHIC.test(chars[index + 1]!));
  });
}
