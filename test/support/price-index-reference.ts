import type { PathCells, PathCount } from '../../etl/stages/40-marts/10-price-index/area-index.ts';

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * The in-memory price-index reference's inputs (`solveAreaIndexes`), read back from a build's
 * `mart_market_sales` and `mart_repeat_pairs`: every area path with its sales count, and each
 * path's repeat-pair cells grouped in JS by a key per path, months counted from `start`.
 */
export async function priceIndexReferenceInputs(q: Query, start: number): Promise<{ paths: PathCount[]; pathCells: PathCells[] }> {
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const pathOf = (r: Record<string, unknown>) => ({ country: s(r.country), district: s(r.district), outcode: s(r.outcode), sector: s(r.sector) });
  const paths = (await q('SELECT country, district, outcode, sector, count(*)::INTEGER AS n FROM mart_market_sales GROUP BY ALL ORDER BY ALL'))
    .map((r) => ({ ...pathOf(r), n: Number(r.n) }));
  const byPath = new Map<string, PathCells>();
  for (const r of await q('SELECT * FROM mart_repeat_pairs ORDER BY ALL')) {
    const key = JSON.stringify(pathOf(r));
    const entry = byPath.get(key) ?? { ...pathOf(r), cells: [] };
    byPath.set(key, entry);
    entry.cells.push({ t1: Number(r.m1) - start, t2: Number(r.m2) - start, n: Number(r.n), sumY: Number(r.sum_y) });
  }
  return { paths, pathCells: [...byPath.values()] };
}
