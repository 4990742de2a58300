/**
 * One typing slip: a letter left out, added, changed, or two neighbours swapped (optimal
 * string alignment distance ≤ 1). Trigram similarity undercounts a swap: STATOIN shares 4 of
 * 12 trigrams with STATION (0.33, under the fuzzy cut) although it is one slip away.
 * Compares `a` with the first `n` letters of `b` (all of it by default), without copying:
 * it runs over a few hundred vocabulary words per typed word.
 */
export function withinOneEdit(a: string, b: string, n = b.length): boolean {
  const d = a.length - n;
  if (d > 1 || d < -1) return false;
  let i = 0;
  while (i < a.length && i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (d === 1) return sameFrom(a, i + 1, b, i, n); // a has one letter more
  if (d === -1) return sameFrom(a, i, b, i + 1, n);
  if (i === n) return true;
  return sameFrom(a, i + 1, b, i + 1, n) || (a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(a, i + 2, b, i + 2, n));
}

/** Whether some start of `word` is within one slip of `typed` (a word still being typed: "NEWPRO" for NEWPORT). */
export function startWithinOneEdit(typed: string, word: string): boolean {
  for (let n = Math.max(1, typed.length - 1); n <= Math.min(word.length, typed.length + 1); n++) if (withinOneEdit(typed, word, n)) return true;
  return false;
}

/** a from i and b's first n letters from j are the same text. */
function sameFrom(a: string, i: number, b: string, j: number, n: number): boolean {
  if (a.length - i !== n - j) return false;
  for (; i < a.length; i++, j++) if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
  return true;
}
