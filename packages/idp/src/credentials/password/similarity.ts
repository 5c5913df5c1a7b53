/** Levenshtein distance with two rows of memory. */
export function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
}

export function longestCommonSubstring(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let best = 0;
  let previous = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    const current = new Array<number>(y.length + 1).fill(0);
    for (let j = 1; j <= y.length; j++) {
      if (x[i - 1] === y[j - 1]) {
        current[j] = previous[j - 1]! + 1;
        if (current[j]! > best) best = current[j]!;
      }
    }
    previous = current;
  }
  return best;
}

/**
 * Kratos' identifier similarity rule, as its password validator applies it: case-insensitive; too similar when the
 * Levenshtein distance is under 5 or the longest common substring covers more than half the password; skipped above
 * 256 bytes.
 */
export function tooSimilar(identifier: string, password: string): boolean {
  const id = identifier.toLowerCase();
  const pw = password.toLowerCase();
  if (Buffer.byteLength(id) > 256 || Buffer.byteLength(pw) > 256 || pw.length === 0) return false;
  return levenshtein(id, pw) < 5 || longestCommonSubstring(id, pw) / [...pw].length > 0.5;
}
