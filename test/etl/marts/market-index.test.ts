import { describe, expect, it } from 'vitest';
import { parentsOf, solveAreaIndexes, streamAreaIndexes, type AreaSeries, type PathCount } from '../../../etl/stages/40-marts/10-price-index/area-index.ts';
import { solveAreaLevel, toIndex, type PairCell } from '../../../etl/stages/40-marts/10-price-index/repeat-sales.ts';

const weak = { smooth: 1e-3, shrink: 1e-6 };

/** Noise-free pairs of every (t1, t2) with t1 < t2 from a known log level. */
function allPairs(level: number[], n = 1): PairCell[] {
  const out: PairCell[] = [];
  for (let a = 0; a < level.length; a++) for (let b = a + 1; b < level.length; b++) out.push({ t1: a, t2: b, n, sumY: n * (level[b]! - level[a]!) });
  return out;
}

describe('solveAreaLevel (regularised repeat sales)', () => {
  it('recovers a known series from noise-free pairs, up to a constant', () => {
    const truth = [0, 0.05, 0.02, 0.1, 0.15, 0.12, 0.2, 0.3];
    const level = solveAreaLevel(truth.length, allPairs(truth, 20), undefined, weak);
    for (let t = 0; t < truth.length; t++) expect(level[t]! - level[0]!).toBeCloseTo(truth[t]!, 3);
  });

  it('gives an area with one sale (no pairs) exactly its parent series', () => {
    const parent = Float64Array.from([0, 0.1, 0.2, 0.25]);
    const level = solveAreaLevel(4, [], parent, { smooth: 100, shrink: 1 });
    expect([...level]).toEqual([...parent]);
  });

  it('is flat (index 100 everywhere) at the top level with no repeat pairs', () => {
    const idx = toIndex(solveAreaLevel(6, [], undefined, { smooth: 10, shrink: 1e-3 }), 2);
    expect([...idx]).toEqual([100, 100, 100, 100, 100, 100]);
  });

  it('bridges a gap of months without sales between its neighbours', () => {
    // Sales only in months 0–2 and 9–11; the level steps from 0 to 0.3 somewhere in between.
    const truth = [0, 0, 0, 0.3, 0.3, 0.3];
    const months = [0, 1, 2, 9, 10, 11];
    const cells: PairCell[] = [];
    for (let a = 0; a < months.length; a++) for (let b = a + 1; b < months.length; b++) cells.push({ t1: months[a]!, t2: months[b]!, n: 50, sumY: 50 * (truth[b]! - truth[a]!) });
    const level = solveAreaLevel(12, cells, undefined, { smooth: 1, shrink: 1e-6 });
    const rel = [...level].map((v) => v - level[0]!);
    expect(rel[11]).toBeCloseTo(0.3, 2);
    for (let t = 3; t <= 8; t++) {
      expect(rel[t]!).toBeGreaterThan(rel[t - 1]! - 1e-9);
      expect(rel[t]!).toBeLessThan(0.3);
    }
    expect(rel[3]!).toBeGreaterThan(0.01);
    expect(rel[8]!).toBeLessThan(0.29);
  });

  it('shrinks a thin area towards its parent and lets a well-sold one follow its own data', () => {
    const parent = new Float64Array(4);
    const own = [0, 0.1, 0.2, 0.3];
    const thin = solveAreaLevel(4, allPairs(own, 1), parent, { smooth: 1, shrink: 5 });
    const rich = solveAreaLevel(4, allPairs(own, 500), parent, { smooth: 1, shrink: 5 });
    const growth = (l: Float64Array) => l[3]! - l[0]!;
    expect(growth(thin)).toBeGreaterThan(0);
    expect(growth(thin)).toBeLessThan(0.15);
    expect(growth(rich)).toBeCloseTo(0.3, 1);
  });

  it('with a curvature prior, continues the recent trend into months without pairs (a flat-level prior lags it)', () => {
    const truth = Array.from({ length: 12 }, (_, t) => 0.01 * t);
    const cells = allPairs(truth.slice(0, 9), 30);
    const trend = solveAreaLevel(12, cells, undefined, { smooth: 0, shrink: 1e-6, curvature: 100 });
    const flat = solveAreaLevel(12, cells, undefined, { smooth: 100, shrink: 1e-6 });
    expect(trend[11]! - trend[0]!).toBeCloseTo(0.11, 2);
    expect(flat[11]! - flat[0]!).toBeLessThan(0.09);
  });

  it('ignores same-month pairs and cells outside the months', () => {
    const a = solveAreaLevel(3, [{ t1: 0, t2: 2, n: 3, sumY: 0.3 }], undefined, weak);
    const b = solveAreaLevel(3, [{ t1: 0, t2: 2, n: 3, sumY: 0.3 }, { t1: 1, t2: 1, n: 9, sumY: 5 }, { t1: 0, t2: 7, n: 9, sumY: 5 }, { t1: -1, t2: 1, n: 2, sumY: 1 }], undefined, weak);
    expect([...b]).toEqual([...a]);
  });

  it('refuses a non-positive shrink and a parent of the wrong length', () => {
    expect(() => solveAreaLevel(3, [], undefined, { smooth: 1, shrink: 0 })).toThrow(/shrink > 0/);
    expect(() => solveAreaLevel(3, [], new Float64Array(2), { smooth: 1, shrink: 1 })).toThrow(/parent series has 2 months, expected 3/);
  });

  it('returns an empty series for no months', () => {
    expect(solveAreaLevel(0, [], undefined, weak).length).toBe(0);
  });
});

describe('toIndex', () => {
  it('is 100 at the base month and follows the log level', () => {
    const idx = toIndex(Float64Array.from([0, Math.log(1.1), Math.log(1.21)]), 1);
    expect(idx[1]).toBe(100);
    expect(idx[0]).toBeCloseTo(100 / 1.1, 9);
    expect(idx[2]).toBeCloseTo(110, 9);
  });
});

describe('area hierarchy', () => {
  const path = (country: string | null, district: string | null, outcode: string | null, sector: string | null, n: number): PathCount => ({ country, district, outcode, sector, n });

  it('hangs an area under the parent most of its sales lie in, and skips unknown levels', () => {
    const parents = parentsOf([
      path('England', 'E1', 'AB1', 'AB1 1', 5),
      path('England', 'E2', 'AB1', 'AB1 2', 7),
      path('England', null, 'ZZ9', 'ZZ9 9', 1),
    ]);
    expect(parents.get('outcode:AB1')).toBe('district:E2');
    expect(parents.get('sector:AB1 1')).toBe('outcode:AB1');
    expect(parents.get('outcode:ZZ9')).toBe('country:England');
    expect(parents.get('country:England')).toBeNull();
    expect(parents.has('district:null')).toBe(false);
  });

  it('breaks a tie between parents by code, the same way every build', () => {
    const parents = parentsOf([path('England', 'E2', 'AB1', null, 3), path('England', 'E1', 'AB1', null, 3)]);
    expect(parents.get('outcode:AB1')).toBe('district:E1');
  });

  it('solves every area top-down; an area without pairs takes its parent series', () => {
    const own = [0, 0.1, 0.2];
    const cells = allPairs(own, 100);
    const series = solveAreaIndexes(3, [path('England', 'E1', 'AB1', 'AB1 1', 10), path('England', 'E1', 'AB2', 'AB2 1', 1)], [
      { country: 'England', district: 'E1', outcode: 'AB1', sector: 'AB1 1', cells },
    ], { country: { smooth: 1, shrink: 1e-6 }, district: { smooth: 1, shrink: 1 }, outcode: { smooth: 1, shrink: 1 }, sector: { smooth: 1, shrink: 1 } });
    expect(series.map((s) => `${s.level}:${s.code}`)).toEqual(['country:England', 'district:E1', 'outcode:AB1', 'outcode:AB2', 'sector:AB1 1', 'sector:AB2 1']);
    const by = new Map(series.map((s) => [s.code, s]));
    expect(by.get('England')!.pairs).toBe(300);
    expect(by.get('AB2')!.pairs).toBe(0);
    expect([...by.get('AB2')!.logLevel]).toEqual([...by.get('E1')!.logLevel]);
    expect([...by.get('AB2 1')!.logLevel]).toEqual([...by.get('AB2')!.logLevel]);
    const g = by.get('England')!.logLevel;
    expect(g[2]! - g[0]!).toBeCloseTo(0.2, 2);
  });
});

describe('streamAreaIndexes (the stage: each level\'s cells streamed per area in code order)', () => {
  const path = (country: string | null, district: string | null, outcode: string | null, sector: string | null, n: number): PathCount => ({ country, district, outcode, sector, n });
  const T = 8;
  const start = 24_000;
  // A home without district or outcode (its sector hangs under the country), a sector with
  // sales but no pairs, two countries.
  const paths = [
    path('England', 'E1', 'AB1', 'AB1 1', 40), path('England', 'E1', 'AB1', 'AB1 2', 30), path('England', 'E2', 'AB2', 'AB2 1', 5),
    path('England', null, null, 'ZZ9 9', 20), path('Wales', 'W1', 'CD1', 'CD1 1', 25), path('Wales', 'W1', 'CD1', null, 3),
  ];
  const cellsFor = (seed: number): PairCell[] => {
    const out: PairCell[] = [];
    for (let a = 0; a < T; a++) for (let b = a + 1; b < T; b++) if ((a * 7 + b * 3 + seed) % 4 !== 0) out.push({ t1: a, t2: b, n: 1 + ((a + b + seed) % 5), sumY: 0.01 * (b - a) * (1 + (seed % 3)) + 0.003 * Math.sin(a * b + seed) });
    return out;
  };
  const pathCells = paths.filter((p) => p.sector !== 'AB2 1').map((p, i) => ({ country: p.country, district: p.district, outcode: p.outcode, sector: p.sector, cells: cellsFor(i) }));

  /** The level's cells summed per area and month pair, sorted by code then months, as chunks of `size` rows (areas split across chunks). */
  async function* chunksOf(level: 'country' | 'district' | 'outcode' | 'sector', size: number, reorder?: (codes: string[]) => string[]) {
    const byArea = new Map<string, Map<string, PairCell>>();
    for (const p of pathCells) {
      const code = p[level];
      if (code === null) continue;
      const m = byArea.get(code) ?? new Map<string, PairCell>();
      byArea.set(code, m);
      for (const c of p.cells) {
        const k = `${c.t1}:${c.t2}`;
        const cur = m.get(k);
        if (cur) {
          cur.n += c.n;
          cur.sumY += c.sumY;
        } else m.set(k, { ...c });
      }
    }
    const codes = (reorder ?? ((x: string[]) => x))([...byArea.keys()].sort());
    const rows = codes.flatMap((code) => [...byArea.get(code)!.values()].sort((x, y) => x.t1 - y.t1 || x.t2 - y.t2).map((c) => [code, c.t1 + start, c.t2 + start, c.n, c.sumY] as const));
    for (let i = 0; i < rows.length; i += size) {
      const part = rows.slice(i, i + size);
      yield { rows: part.length, columns: [0, 1, 2, 3, 4].map((j) => part.map((r) => r[j])) };
    }
  }

  const collect = async (gen: AsyncIterable<AreaSeries>) => {
    const out: AreaSeries[] = [];
    for await (const s of gen) out.push(s);
    return out;
  };

  it('gives the in-memory reference\'s areas, parents, pairs and order, and its series within 1e-12', async () => {
    const want = solveAreaIndexes(T, paths, pathCells);
    for (const size of [1, 3, 1000]) {
      const got = await collect(streamAreaIndexes(T, start, paths, (level) => chunksOf(level, size)));
      expect(got.map((s) => [s.level, s.code, s.parent, s.pairs])).toEqual(want.map((s) => [s.level, s.code, s.parent, s.pairs]));
      for (let i = 0; i < want.length; i++) {
        for (let t = 0; t < T; t++) expect(Math.abs(got[i]!.logLevel[t]! - want[i]!.logLevel[t]!)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(want[i]!.logLevel[t]!)));
      }
    }
    const got = await collect(streamAreaIndexes(T, start, paths, (level) => chunksOf(level, 4)));
    const by = new Map(got.map((s) => [`${s.level}:${s.code}`, s]));
    expect(by.get('sector:ZZ9 9')!.parent).toBe('England');
    expect(by.get('sector:AB2 1')!.pairs).toBe(0);
    expect([...by.get('sector:AB2 1')!.logLevel]).toEqual([...by.get('outcode:AB2')!.logLevel]);
  });

  it('fails clearly on cells out of the JS code order or for an area without sales, rather than mis-assigning them', async () => {
    const swapped = (level: string) => (codes: string[]) => (level === 'sector' ? [codes[1]!, codes[0]!, ...codes.slice(2)] : codes);
    await expect(collect(streamAreaIndexes(T, start, paths, (level) => chunksOf(level, 5, swapped(level))))).rejects.toThrow(/sector cells out of order .*not the JS order/);
    const stranger = async function* (level: string) {
      if (level === 'outcode') yield { rows: 1, columns: [['AB9'], [start], [start + 7], [2], [0.1]] };
    };
    await expect(collect(streamAreaIndexes(T, start, paths, stranger))).rejects.toThrow(/outcode "AB9" has repeat pairs but no sales/);
  });
});
