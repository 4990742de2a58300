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
 * The top-down solve shared by the in-memory reference (`solveAreaIndexes`) and the streamed
 * stage (`streamAreaIndexes`): each level's areas in code order, each solved against its
 * parent's series. A solved series is kept only while areas under it are still to be solved
 * (a sector's never), so what it holds is small: T floats per pending parent.
 */
class AreaSolver {
  private readonly parents: Map<string, string | null>;
  /** Areas not yet solved under each parent key. */
  private readonly pending = new Map<string, number>();
  private readonly solved = new Map<string, Float64Array>();

  constructor(private readonly T: number, paths: readonly PathCount[], private readonly penalties: Record<IndexLevel, IndexPenalty>) {
    this.parents = parentsOf(paths);
    for (const p of this.parents.values()) if (p !== null) this.pending.set(p, (this.pending.get(p) ?? 0) + 1);
  }

  /** The codes of one level's areas, in the order they are solved (JS string order of the keys). */
  codes(level: IndexLevel): string[] {
    return [...this.parents.keys()].filter((k) => k.startsWith(`${level}:`)).sort().map((k) => k.slice(level.length + 1));
  }

  /** Solves one area from its cells (none: its parent's series); parents must be solved first. */
  solve(level: IndexLevel, code: string, cells: readonly PairCell[]): AreaSeries {
    const key = `${level}:${code}`;
    if (!this.parents.has(key)) throw new Error(`price index: ${key} is not an area with sales`);
    const parentKey = this.parents.get(key) ?? null;
    const parent = parentKey ? this.solved.get(parentKey) : undefined;
    if (parentKey && !parent) throw new Error(`price index: ${key} solved before its parent ${parentKey}`);
    const logLevel = solveAreaLevel(this.T, cells, parent, parent ? this.penalties[level] : this.penalties.country);
    if (parentKey) {
      const left = this.pending.get(parentKey)! - 1;
      if (left > 0) this.pending.set(parentKey, left);
      else {
        this.pending.delete(parentKey);
        this.solved.delete(parentKey);
      }
    }
    if (this.pending.has(key)) this.solved.set(key, logLevel);
    let pairs = 0;
    for (const c of cells) if (c.t1 !== c.t2) pairs += c.n;
    return { level, code, parent: parentKey ? parentKey.slice(parentKey.indexOf(':') + 1) : null, logLevel, pairs };
  }
}

/**
 * Solves every area's series top-down: each level's deviation from its parent's solved series.
 * Areas with sales but no repeat pairs get their parent's series (the shrink term alone).
 * The in-memory reference: it holds every area's cells at once (tests, the backtest); the
 * stage streams them per level instead (`streamAreaIndexes`).
 */
export function solveAreaIndexes(T: number, paths: readonly PathCount[], pairs: readonly PathCells[], penalties = INDEX_PENALTIES): AreaSeries[] {
  const solver = new AreaSolver(T, paths, penalties);
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
  const out: AreaSeries[] = [];
  for (const level of INDEX_LEVELS) {
    for (const code of solver.codes(level)) out.push(solver.solve(level, code, [...(cellsByArea.get(`${level}:${code}`)?.values() ?? [])]));
  }
  return out;
}

/**
 * One chunk of a level's cells as columns: area code, m1, m2 (month numbers), n, Σy; rows in
 * (code, m1, m2) order, each (code, m1, m2) once (summed over the area's paths).
 */
export interface LevelCellChunk {
  rows: number;
  columns: readonly (readonly unknown[])[];
}

/**
 * `solveAreaIndexes` over cells streamed one level at a time (`cellsOf(level)`, already summed
 * per area and month pair, sorted by code): each area is solved as soon as its cells are
 * complete, so what is held is one area's cells and the pending parents' series, whatever the
 * region's size. Yields the same areas in the same order (every area of `paths`, those
 * without cells solved with none). The stream's code order must be the JS order of the codes
 * (DuckDB's VARCHAR order is byte order, JS's UTF-16 order: the same for ASCII); a stream out
 * of that order, or a code with no sales in `paths`, throws rather than mis-assigning cells.
 */
export async function* streamAreaIndexes(
  T: number, start: number, paths: readonly PathCount[], cellsOf: (level: IndexLevel) => AsyncIterable<LevelCellChunk>, penalties = INDEX_PENALTIES,
): AsyncGenerator<AreaSeries> {
  const solver = new AreaSolver(T, paths, penalties);
  for (const level of INDEX_LEVELS) {
    const codes = solver.codes(level);
    let next = 0;
    let cur: string | undefined;
    let cells: PairCell[] = [];
    for await (const { rows, columns } of cellsOf(level)) {
      const [code, m1, m2, n, sumY] = columns as [readonly unknown[], readonly unknown[], readonly unknown[], readonly unknown[], readonly unknown[]];
      for (let k = 0; k < rows; k++) {
        const raw = code[k];
        if (raw === null || raw === undefined) throw new Error(`price index: a ${level} cell without an area code`);
        const c = String(raw);
        if (c !== cur) {
          if (cur !== undefined) {
            if (!(cur < c)) throw new Error(`price index: ${level} cells out of order (${JSON.stringify(c)} after ${JSON.stringify(cur)}): the SQL's code order is not the JS order`);
            yield solver.solve(level, cur, cells);
            cells = [];
          }
          while (next < codes.length && codes[next]! < c) yield solver.solve(level, codes[next++]!, []);
          if (codes[next] !== c) throw new Error(`price index: ${level} ${JSON.stringify(c)} has repeat pairs but no sales in the area paths`);
          next++;
          cur = c;
        }
        cells.push({ t1: Number(m1[k]) - start, t2: Number(m2[k]) - start, n: Number(n[k]), sumY: Number(sumY[k]) });
      }
    }
    if (cur !== undefined) yield solver.solve(level, cur, cells);
    cells = [];
    while (next < codes.length) yield solver.solve(level, codes[next++]!, []);
  }
}
