/**
 * The market grade (GET /str/market `grade`): each area's dimension values, their percentiles
 * against a benchmark of every area of the build, and the letter. Pure; docs/str.md ("The grade").
 */
import { accumulate, latestEnd, type Acc, type MarketListings } from './market-listings.ts';
import { round1 } from '../stats.ts';

/** Grade dimensions, each oriented so that a higher value is a better market for a host. */
export const DIMENSIONS = ['revenue', 'occupancy', 'revenue_growth', 'stability', 'supply_headroom', 'guest_rating'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const GRADE = {
  /** A postcode sector joins the benchmark with at least this many active listings. */
  minBenchmarkListings: 3,
  /** Lowest score of each letter; below the last, F. */
  bands: [
    ['A', 85],
    ['B', 70],
    ['C', 50],
    ['D', 30],
    ['E', 15],
  ] as const,
  /** How many dimensions strongest and weakest name. */
  named: 2,
};



/** The grade's raw dimension values for a group (null when not measurable). */
export function dimensionValues(s: MarketListings, idx: ArrayLike<number>, acc?: Acc): Record<Dimension, number | null> {
  const a = acc ?? accumulate(s, idx, latestEnd(s, idx));
  const ltm = a.ltm();
  const prevLive = a.sum(a.live, 0, 12);
  const prevRev = a.sum(a.rev, 0, 12);
  const prevRpl = prevLive > 0 ? prevRev / prevLive : 0;
  const rpls: number[] = [];
  for (let g = 12; g < 24; g++) {
    const x = a.revenuePerListing(g);
    if (x !== null) rpls.push(x);
  }
  let stability: number | null = null;
  if (rpls.length >= 6) {
    const mean = rpls.reduce((t, x) => t + x, 0) / rpls.length;
    const sd = Math.sqrt(rpls.reduce((t, x) => t + (x - mean) ** 2, 0) / rpls.length);
    stability = mean > 0 ? -(sd / mean) : null;
  }
  const liveNow = a.live[23]!;
  const liveYearAgo = a.live[11]!;
  let rating = 0;
  let rated = 0;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    const r = s.ratings[i * 7]!;
    if (s.active[i] && !Number.isNaN(r)) {
      rating += r;
      rated++;
    }
  }
  return {
    revenue: ltm.live_months > 0 ? ltm.revenue_pcm : null,
    occupancy: ltm.occupancy,
    revenue_growth: prevRpl > 0 && ltm.revenue_pcm !== null ? ltm.revenue_pcm / prevRpl - 1 : null,
    stability,
    supply_headroom: liveYearAgo > 0 ? -(liveNow / liveYearAgo - 1) : null,
    guest_rating: rated > 0 ? rating / rated : null,
  };
}

/** Share of `sorted` below v, ties counting half, 0-100. */
export function percentileOf(sorted: readonly number[], v: number): number {
  if (sorted.length === 0) return 50;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  let eq = lo;
  while (eq < sorted.length && sorted[eq] === v) eq++;
  return ((lo + (eq - lo) / 2) / sorted.length) * 100;
}

/** The benchmark: every dimension's values over the build's areas, and the areas' composite scores. */
export interface GradeBenchmark {
  areas: string[];
  dims: Record<Dimension, number[]>;
  composites: number[];
}

function composite(bench: Pick<GradeBenchmark, 'dims'>, v: Record<Dimension, number | null>): { composite: number | null; pct: Partial<Record<Dimension, number>> } {
  const pctBy: Partial<Record<Dimension, number>> = {};
  let t = 0;
  let k = 0;
  for (const d of DIMENSIONS) {
    const x = v[d];
    if (x === null || bench.dims[d].length === 0) continue;
    const p = percentileOf(bench.dims[d], x);
    pctBy[d] = p;
    t += p;
    k++;
  }
  return { composite: k > 0 ? t / k : null, pct: pctBy };
}

/**
 * The benchmark over the build's postcode sectors with at least `minBenchmarkListings`
 * active listings (all sectors with an active listing when none has that many).
 */
export function gradeBenchmark(s: MarketListings): GradeBenchmark {
  const bySector = new Map<string, number[]>();
  for (let i = 0; i < s.n; i++) {
    const sec = s.sector[i];
    if (!sec) continue;
    let a = bySector.get(sec);
    if (!a) bySector.set(sec, (a = []));
    a.push(i);
  }
  const activeIn = (idx: number[]) => idx.reduce((t, i) => t + s.active[i]!, 0);
  return benchmarkOf([...bySector].map(([area, idx]) => ({ area, active: activeIn(idx), values: () => dimensionValues(s, idx) })));
}

/**
 * The benchmark from each sector's active listings and (computed only for the sectors kept)
 * dimension values: `gradeBenchmark`'s choice, for a caller that reads the sectors one by one.
 */
export function benchmarkOf(sectors: ReadonlyArray<{ area: string; active: number; values: () => Record<Dimension, number | null> }>): GradeBenchmark {
  let kept = sectors.filter((x) => x.active >= GRADE.minBenchmarkListings);
  if (kept.length === 0) kept = sectors.filter((x) => x.active > 0);
  kept = [...kept].sort((a, b) => (a.area < b.area ? -1 : a.area > b.area ? 1 : 0));
  const areas = kept.map((x) => x.area);
  const values = kept.map((x) => x.values());
  const dims = Object.fromEntries(DIMENSIONS.map((d) => [d, values.map((v) => v[d]).filter((x): x is number => x !== null).sort((a, b) => a - b)])) as Record<Dimension, number[]>;
  const composites = values.map((v) => composite({ dims }, v).composite).filter((x): x is number => x !== null).sort((a, b) => a - b);
  return { areas, dims, composites };
}

export interface Grade {
  letter: 'A' | 'B' | 'C' | 'D' | 'E' | 'F';
  score_0_100: number;
  strongest: Dimension[];
  weakest: Dimension[];
}

export function letterOf(score: number): Grade['letter'] {
  for (const [l, min] of GRADE.bands) if (score >= min) return l;
  return 'F';
}

/** The grade of a group's dimension values against the benchmark. */
/** The grade of a selection with too few active listings to rank: no letter, and why. */
export function ungraded(active: number): Record<string, unknown> {
  return {
    letter: null, score_0_100: null, strongest: [], weakest: [], listings: active,
    note: `Too thin to grade: ${active} active listing${active === 1 ? '' : 's'}, at least ${GRADE.minBenchmarkListings} needed.`,
  };
}

export function gradeOf(bench: GradeBenchmark, v: Record<Dimension, number | null>): Grade {
  const c = composite(bench, v);
  const score = c.composite === null ? 50 : percentileOf(bench.composites, c.composite);
  const ranked = (Object.entries(c.pct) as [Dimension, number][]).sort((a, b) => b[1] - a[1] || DIMENSIONS.indexOf(a[0]) - DIMENSIONS.indexOf(b[0]));
  const k = Math.min(GRADE.named, Math.floor(ranked.length / 2));
  return {
    letter: letterOf(score),
    score_0_100: round1(score),
    strongest: ranked.slice(0, k).map(([d]) => d),
    weakest: ranked.slice(ranked.length - k).reverse().map(([d]) => d),
  };
}
