import { describe, expect, it } from 'vitest';
import { SparseScores } from '../../service/search/sparse-scores.ts';

/** Seeded uniform [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * The reference: per ordinal, the terms (stamps) that reached it and the sum of each term's
 * first weight, in the order first touched; computed with a Map, not the hash table.
 */
function reference(terms: Array<{ stamp: number; ords: number[]; w: number }>): Array<[number, number]> {
  const seen = new Map<number, { stamps: Set<number>; score: number }>();
  for (const t of terms) {
    for (const o of t.ords) {
      const e = seen.get(o);
      if (!e) seen.set(o, { stamps: new Set([t.stamp]), score: Math.fround(t.w) });
      else if (!e.stamps.has(t.stamp)) (e.stamps.add(t.stamp), (e.score = Math.fround(e.score + t.w)));
    }
  }
  return [...seen].map(([o, e]) => [o, e.score]);
}

const entries = (s: SparseScores): Array<[number, number]> => Array.from({ length: s.count }, (_, i) => [s.ords[i]!, s.score(i)]);

describe('SparseScores', () => {
  it('keeps each touched ordinal once, in first-touched order, with one contribution per term, across queries and growth to 300,000 entries touched', () => {
    const r = rng(5);
    const s = new SparseScores();
    let stamp = 0;
    // Queries from a few addresses to 300,000 touched (the table grows from 16,384 entries several times), over ordinals up to 30M.
    for (const [size, range] of [[10, 100], [5_000, 1_000_000], [100_000, 30_000_000], [40, 50], [60_000, 200_000]] as const) {
      s.begin();
      const terms = [0, 1, 2].map(() => ({ stamp: ++stamp, w: 0.5 + r() * 3, ords: Array.from({ length: size }, () => Math.floor(r() * range)) }));
      for (const t of terms) for (const o of t.ords) s.add(o, t.stamp, t.w);
      expect(entries(s)).toEqual(reference(terms));
    }
    expect(s.bytes).toBeGreaterThan(250_000 * 12);
  });

  it('lifts an entry and lays scores out as the engine reads them (entry i at 2i + 1)', () => {
    const s = new SparseScores();
    s.begin();
    s.add(7, 1, 2);
    s.add(3, 1, 1);
    s.add(7, 2, 0.5);
    s.lift(1, 1000);
    expect(entries(s)).toEqual([[7, 2.5], [3, 1001]]);
    expect([s.scores[1], s.scores[3]]).toEqual([2.5, 1001]);
    // A new query forgets them without clearing anything.
    s.begin();
    expect(s.count).toBe(0);
    s.add(3, 3, 4);
    expect(entries(s)).toEqual([[3, 4]]);
  });
});
