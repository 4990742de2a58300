/**
 * Trigrams in the pg_trgm sense: every run of letters and digits is a word, padded with
 * two spaces before and one after, and cut into three-character grams. Text is expected
 * already normalised (upper case) by schemas/address-normalise.ts, so case never differs.
 */
export function wordTrigrams(word: string, into: Set<string> = new Set()): Set<string> {
  const p = `  ${word} `;
  for (let i = 0; i + 3 <= p.length; i++) into.add(p.slice(i, i + 3));
  return into;
}

export function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.split(/[^A-Z0-9]+/i)) if (w) wordTrigrams(w.toUpperCase(), out);
  return out;
}

export function sharedCount(a: Set<string>, b: Set<string>): number {
  let n = 0;
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (big.has(t)) n++;
  return n;
}

/** pg_trgm similarity: shared trigrams ÷ trigrams in either. */
export function similarity(a: Set<string>, b: Set<string>): number {
  const shared = sharedCount(a, b);
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}
