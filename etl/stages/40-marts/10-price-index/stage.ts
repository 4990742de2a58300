import type { DuckDBInstance } from '@duckdb/node-api';
import type { Stage } from '../../../pipeline/context.ts';
import { queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { loadRows } from '../../../pipeline/load-rows.ts';
import { streamColumns, type ColumnChunk } from '../../30-serving/stream-columns.ts';
import { streamAreaIndexes, type PathCount } from './area-index.ts';
import { toIndex } from './repeat-sales.ts';
import { monthNo, monthText } from '../../../../schemas/months.ts';
import { INDEX_BASE_MONTH, MIN_REPEAT_PAIRS, MIN_SALES_12M } from '../../../../schemas/tables/market.ts';
import { windowEnd } from '../../../pipeline/source-as-of.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** The repeat-sales index per area, its monthly volumes and medians, and growth. */
export const priceIndexStage: Stage = {
  name: 'price_index',
  description: 'repeat-sales house price index by month for countries, districts, outcodes and sectors; volumes, medians, growth 1/3/5/10 years',
  reads: ['sales', 'sales_unmatched', 'stg_onspd', 'addresses', 'properties'],
  writes: ['price_index_monthly', 'price_growth', 'mart_recent_sales'],
  async run(ctx) {
    // The index, its growth and the 12-month figures end at Price Paid's latest month, not the build's.
    const end = windowEnd(ctx.sources, 'price_paid', ctx.today);
    const latest = end.month;
    await sql.run(ctx.conn, 'mart_market_sales', { window_end: end.date });
    await sql.run(ctx.conn, 'mart_repeat_pairs');
    const [first] = await queryRows(ctx.conn, sql.text('mart_first_month'));
    const start = first?.m === null || first?.m === undefined ? latest : Number(first.m);
    const T = latest - start + 1;
    const baseNo = monthNo(INDEX_BASE_MONTH);
    const base = baseNo >= start && baseNo <= latest ? baseNo - start : T - 1;

    const paths = (await queryRows(ctx.conn, sql.text('mart_area_paths'))).map((r) => ({ ...pathOf(r), n: Number(r.n) })) as PathCount[];
    // Each level's cells summed per area in DuckDB (which spills) and streamed in code order:
    // an area is solved once its cells are complete and written at once, so memory is one
    // area's cells (at most T²/2) and the parents' series, not the region's cells.
    const series = streamAreaIndexes(T, start, paths, (level) => levelCells(ctx.db, level));
    let areas = 0;
    let pairs = 0;
    await loadRows(ctx.conn, 'mart_index_series', [
      { name: 'area_level', type: 'VARCHAR', get: (r: IndexRow) => r.level },
      { name: 'area_code', type: 'VARCHAR', get: (r: IndexRow) => r.code },
      { name: 'parent_code', type: 'VARCHAR', get: (r: IndexRow) => r.parent },
      { name: 'month_no', type: 'INTEGER', get: (r: IndexRow) => r.month },
      { name: 'index', type: 'DOUBLE', get: (r: IndexRow) => r.index },
      { name: 'repeat_pairs', type: 'INTEGER', get: (r: IndexRow) => r.pairs },
    ], (async function* () {
      for await (const s of series) {
        areas++;
        if (s.level === 'country') pairs += s.pairs;
        const idx = toIndex(s.logLevel, base);
        for (let t = 0; t < T; t++) yield { level: s.level, code: s.code, parent: s.parent, month: start + t, index: idx[t]!, pairs: s.pairs };
      }
    })());
    await sql.run(ctx.conn, 'mart_repeat_level_cells_drop');
    await sql.run(ctx.conn, 'mart_price_index_monthly', { min_pairs: MIN_REPEAT_PAIRS, min_sales_12m: MIN_SALES_12M });
    await sql.run(ctx.conn, 'mart_price_growth', { latest_month_no: latest });
    await sql.run(ctx.conn, 'mart_recent_sales_priced', { latest_month_no: latest });
    await sql.run(ctx.conn, 'mart_recent_sales');
    await sql.run(ctx.conn, 'mart_recent_sales_priced_drop');
    ctx.quality.price_index = { areas, months: T, repeat_pairs: pairs, base_month: monthText(start + base) };
  },
};

/**
 * One level's cells (mart_repeat_level_cells.sql), sorted into a table on a connection of their
 * own (the stage's is busy inserting the series) and then streamed out in that order.
 */
async function* levelCells(db: DuckDBInstance, level: string): AsyncGenerator<ColumnChunk> {
  const conn = await db.connect();
  try {
    await sql.run(conn, 'mart_repeat_level_cells', { level });
  } finally {
    conn.closeSync();
  }
  yield* streamColumns(db, sql.text('mart_repeat_level_cells_read'));
}

interface IndexRow { level: string; code: string; parent: string | null; month: number; index: number; pairs: number }

function pathOf(r: Record<string, unknown>) {
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return { country: s(r.country), district: s(r.district), outcode: s(r.outcode), sector: s(r.sector) };
}

