import type { DuckDBConnection } from '@duckdb/node-api';
import type { Stage } from '../../../pipeline/context.ts';
import { queryRows, runSql, sqlText } from '../../../pipeline/sql.ts';
import { loadRows } from '../../../pipeline/load-rows.ts';
import { solveAreaIndexes, type PathCells, type PathCount } from './area-index.ts';
import { toIndex } from './repeat-sales.ts';
import { monthNo, monthText } from '../../../../schemas/months.ts';
import { INDEX_BASE_MONTH, MIN_REPEAT_PAIRS, MIN_SALES_12M, buildMonthNo } from '../../../../schemas/tables/market.ts';

/** The repeat-sales index per area, its monthly volumes and medians, and growth. */
export const priceIndexStage: Stage = {
  name: 'price_index',
  description: 'repeat-sales house price index by month for countries, districts, outcodes and sectors; volumes, medians, growth 1/3/5/10 years',
  reads: ['sales', 'addresses', 'properties'],
  writes: ['price_index_monthly', 'price_growth', 'mart_recent_sales'],
  async run(ctx) {
    const latest = buildMonthNo(ctx.today);
    await runSql(ctx.conn, 'mart_market_sales', { today: ctx.today });
    await runSql(ctx.conn, 'mart_sales_by_area');
    await runSql(ctx.conn, 'mart_repeat_pairs');
    const [first] = await queryRows(ctx.conn, sqlText('mart_first_month'));
    const start = first?.m === null || first?.m === undefined ? latest : Number(first.m);
    const T = latest - start + 1;
    const baseNo = monthNo(INDEX_BASE_MONTH);
    const base = baseNo >= start && baseNo <= latest ? baseNo - start : T - 1;

    const paths = (await queryRows(ctx.conn, sqlText('mart_area_paths'))).map((r) => ({ ...pathOf(r), n: Number(r.n) })) as PathCount[];
    const series = solveAreaIndexes(T, paths, await pairCells(ctx.conn, start));
    await loadRows(ctx.conn, 'mart_index_series', [
      { name: 'area_level', type: 'VARCHAR', get: (r: IndexRow) => r.level },
      { name: 'area_code', type: 'VARCHAR', get: (r: IndexRow) => r.code },
      { name: 'parent_code', type: 'VARCHAR', get: (r: IndexRow) => r.parent },
      { name: 'month_no', type: 'INTEGER', get: (r: IndexRow) => r.month },
      { name: 'index', type: 'DOUBLE', get: (r: IndexRow) => r.index },
      { name: 'repeat_pairs', type: 'INTEGER', get: (r: IndexRow) => r.pairs },
    ], (function* () {
      for (const s of series) {
        const idx = toIndex(s.logLevel, base);
        for (let t = 0; t < T; t++) yield { level: s.level, code: s.code, parent: s.parent, month: start + t, index: idx[t]!, pairs: s.pairs };
      }
    })());
    await runSql(ctx.conn, 'mart_price_index_monthly', { min_pairs: MIN_REPEAT_PAIRS, min_sales_12m: MIN_SALES_12M });
    await runSql(ctx.conn, 'mart_price_growth', { latest_month_no: latest });
    await runSql(ctx.conn, 'mart_recent_sales', { latest_month_no: latest });
    const pairs = series.filter((s) => s.level === 'country').reduce((n, s) => n + s.pairs, 0);
    ctx.quality.price_index = { areas: series.length, months: T, repeat_pairs: pairs, base_month: monthText(start + base) };
  },
};

interface IndexRow { level: string; code: string; parent: string | null; month: number; index: number; pairs: number }

/**
 * The repeat-sale pair cells grouped by area path, paths and cells in the SQL's order. Read
 * column-wise (no JSON object per cell): the rows come sorted by path first, so a path's
 * cells are consecutive and a new path starts where any of its four codes changes.
 */
async function pairCells(conn: DuckDBConnection, start: number): Promise<PathCells[]> {
  const result = await conn.runAndReadAll(sqlText('mart_repeat_pair_cells'));
  const names = result.columnNames();
  const columns = result.getColumns();
  const col = (name: string) => {
    const i = names.indexOf(name);
    if (i < 0) throw new Error(`mart_repeat_pair_cells has no column ${name}`);
    return columns[i]!;
  };
  const [country, district, outcode, sector] = [col('country'), col('district'), col('outcode'), col('sector')];
  const [m1, m2, n, sumY] = [col('m1'), col('m2'), col('n'), col('sum_y')];
  const out: PathCells[] = [];
  let cur: PathCells | undefined;
  for (let k = 0; k < result.currentRowCount; k++) {
    const p = pathOf({ country: country[k], district: district[k], outcode: outcode[k], sector: sector[k] });
    if (!cur || cur.country !== p.country || cur.district !== p.district || cur.outcode !== p.outcode || cur.sector !== p.sector) out.push((cur = { ...p, cells: [] }));
    cur.cells.push({ t1: Number(m1[k]) - start, t2: Number(m2[k]) - start, n: Number(n[k]), sumY: Number(sumY[k]) });
  }
  return out;
}

function pathOf(r: Record<string, unknown>) {
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return { country: s(r.country), district: s(r.district), outcode: s(r.outcode), sector: s(r.sector) };
}

