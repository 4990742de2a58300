import { solveAreaLevel, type IndexPenalty, type PairCell } from './repeat-sales.ts';

/** Area levels of the price index, from the top (no parent) down. */
export const INDEX_LEVELS = ['country', 'district', 'outcode', 'sector'] as const;
export type IndexLevel = (typeof INDEX_LEVELS)[number];

/**
 * Penalties per level (docs/marts.md). Pair noise variance is about 0.036 (two sales with log
 * SD ≈ 0.135); smooth ≈ 0.036 ÷ (monthly step SD)², shrink ≈ 0.036 ÷ (deviation SD)². A
 * country follows the market (seasonality included, hence a light curvature weight); districts and
 * outcodes drift from their parent by up to a few tenths in log terms over decades; sectors
 * share their outcode's market closely. Tuned on the synthetic region (docs/marts.md).
 */
export const INDEX_PENALTIES: Record<IndexLevel, IndexPenalty> = {
  // A country's prior is a steady trend (curvature) rather than a flat level: the latest
  // months, with the fewest pairs, then continue the recent slope instead of lagging it.
  country: { smooth: 0, shrink: 1e-3, curvature: 10_000 },
  district: { smooth: 1000, shrink: 0.3 },
  outcode: { smooth: 1000, shrink: 0.5 },
  sector: { smooth: 3000, shrink: 20 },
};

/** The areas one home belongs to (null where unknown). */
export interface AreaPath {
  country: string | null;
  district: string | null;
  outcode: string | null;
  sector: string | null;
}

/** Aggregated repeat-sales cells of the homes sharing one area path. */
export interface PathCells extends AreaPath {
  cells: PairCell[];
}

/** Homes (or sales) per area path, to know every area and its parent. */
export interface PathCount extends AreaPath {
  n: number;
}

export interface AreaSeries {
  level: IndexLevel;
  code: string;
  parent: string | null;
  /** Log price level by month (0 … T−1). */
  logLevel: Float64Array;
  /** Repeat-sale pairs inside the area. */
  pairs: number;
}

/**
 * Every area's parent: the parent area most of its sales lie in (an outcode can straddle two
 * local authorities; it hangs under the one with most sales).
 */
export function parentsOf(paths: readonly PathCount[]): Map<string, string | null> {
  const votes = new Map<string, Map<string, number>>();
  for (const p of paths) {
    for (let i = 0; i < INDEX_LEVELS.length; i++) {
      const level = INDEX_LEVELS[i]!;
      const code = p[level];
      if (code === null) continue;
      const key = `${level}:${code}`;
      const v = votes.get(key) ?? new Map<string, number>();
      votes.set(key, v);
      // The nearest known ancestor: a home without a district still counts under its country.
      for (let j = i - 1; j >= 0; j--) {
        const up = p[INDEX_LEVELS[j]!];
        if (up !== null) {
          const upKey = `${INDEX_LEVELS[j]}:${up}`;
          v.set(upKey, (v.get(upKey) ?? 0) + p.n);
          break;
        }
      }
    }
  }
  const out = new Map<string, string | null>();
  for (const [key, v] of votes) {
    let best: string | null = null;
    let bestN = -1;
    for (const [k, n] of [...v].sort(([a], [b]) => (a < b ? -1 : 1))) if (n > bestN) [best, bestN] = [k, n];
    out.set(key, best);
  }
  return out;
}

/**
 * Solves every area's series top-down: each level's deviation from its parent's solved series.
 * Areas with sales but no repeat pairs get their parent's series (the shrink term alone).
 */
export function solveAreaIndexes(T: number, paths: readonly PathCount[], pairs: readonly PathCells[], penalties = INDEX_PENALTIES): AreaSeries[] {
  const parents = parentsOf(paths);
  const cellsByArea = new Map<string, Map<string, PairCell>>();
  for (const p of pairs) {
    for (const level of INDEX_LEVELS) {
      const code = p[level];
      if (code === null) continue;
      const key = `${level}:${code}`;
      const m = cellsByArea.get(key) ?? new Map<string, PairCell>();
      cellsByArea.set(key, m);
      for (const c of p.cells) {
        const ck = `${c.t1}:${c.t2}`;
        const cur = m.get(ck);
        if (cur) {
          cur.n += c.n;
          cur.sumY += c.sumY;
        } else m.set(ck, { ...c });
      }
    }
  }
  const solved = new Map<string, Float64Array>();
  const out: AreaSeries[] = [];
  for (const level of INDEX_LEVELS) {
    const keys = [...parents.keys()].filter((k) => k.startsWith(`${level}:`)).sort();
    for (const key of keys) {
      const parentKey = parents.get(key) ?? null;
      const cells = [...(cellsByArea.get(key)?.values() ?? [])];
      const parent = parentKey ? solved.get(parentKey) : undefined;
      const logLevel = solveAreaLevel(T, cells, parent, parent ? penalties[level] : penalties.country);
      solved.set(key, logLevel);
      out.push({
        level, code: key.slice(level.length + 1), parent: parentKey ? parentKey.slice(parentKey.indexOf(':') + 1) : null,
        logLevel, pairs: cells.reduce((s, c) => s + (c.t1 !== c.t2 ? c.n : 0), 0),
      });
    }
  }
  return out;
}
