import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { solveAreaIndexes } from '../../../etl/stages/40-marts/10-price-index/area-index.ts';
import { toIndex } from '../../../etl/stages/40-marts/10-price-index/repeat-sales.ts';
import { priceIndexStage } from '../../../etl/stages/40-marts/10-price-index/stage.ts';
import { monthNo } from '../../../schemas/months.ts';
import { INDEX_BASE_MONTH } from '../../../schemas/tables/market.ts';
import { priceIndexReferenceInputs } from '../../support/price-index-reference.ts';
import { stagedContext } from '../../support/region.ts';

const num = (v: unknown) => Number(v);
const within = (got: number, want: number, rel: number, abs = 0) => Math.abs(got - want) <= abs + rel * Math.abs(want);

/**
 * The price_index stage streams each level's cells out of DuckDB, summed per area, and solves
 * an area as its cells complete; `solveAreaIndexes` holds every path's cells in memory and is
 * the reference. On a staged synthetic region with two awkward cases added: an outcode and
 * sector with sales but no repeat pairs, and homes with no district nor outcode (their sector
 * hangs under the country, the nearest known ancestor).
 */
describe('price_index: the streamed solve against the in-memory reference', () => {
  let ctx: BuildContext;
  const q = (sql: string) => queryRows(ctx.conn, sql);
  const snapshot = async () => ({
    series: await q('SELECT * FROM mart_index_series'),
    monthly: await q('SELECT * FROM price_index_monthly ORDER BY area_level, area_code, month'),
    growth: await q('SELECT * FROM price_growth ORDER BY area_level, area_code'),
    quality: structuredClone(ctx.quality.price_index),
  });
  let first: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    ctx = await stagedContext();
    await ctx.conn.run(`UPDATE addresses SET outcode = 'ZZ8', sector = 'ZZ8 8' WHERE uprn = (
      SELECT uprn FROM sales WHERE date <= DATE '2025-10-01' AND price > 0 GROUP BY uprn HAVING count(*) = 1 ORDER BY uprn LIMIT 1)`);
    await ctx.conn.run(`UPDATE addresses SET la_code = NULL, outcode = NULL, sector = 'ZZ9 9' WHERE country = 'England' AND uprn IN (
      SELECT uprn FROM sales WHERE date <= DATE '2025-10-01' AND category = 'A' GROUP BY uprn HAVING count(*) >= 3 ORDER BY uprn LIMIT 25)`);
    await priceIndexStage.run(ctx);
    first = await snapshot();
  }, 180_000);

  it('mart_index_series: the reference\'s areas, parents, months and pairs in its order, the index within 1e-9 relative', async () => {
    const start = num((await q('SELECT min(month_no) AS m FROM mart_market_sales'))[0]!.m);
    // The index runs to Price Paid's latest month (not the build's): its last sale's month.
    const last = num((await q(`SELECT max(year(date) * 12 + month(date) - 1) AS m FROM sales WHERE date <= DATE '2025-10-01'`))[0]!.m);
    const T = last - start + 1;
    const base = monthNo(INDEX_BASE_MONTH) - start;
    const { paths, pathCells } = await priceIndexReferenceInputs(q, start);
    const ref = solveAreaIndexes(T, paths, pathCells);
    const want = ref.flatMap((a) => [...toIndex(a.logLevel, base)].map((index, t) => ({ key: `${a.level} ${a.code} ${a.parent} ${start + t} ${a.pairs}`, index })));
    const got = first.series;
    expect(got.map((r) => `${r.area_level} ${r.area_code} ${r.parent_code} ${r.month_no} ${r.repeat_pairs}`)).toEqual(want.map((w) => w.key));
    const off = got.filter((r, i) => !within(num(r.index), want[i]!.index, 1e-9));
    expect(off.slice(0, 5)).toEqual([]);
    expect(first.quality).toEqual({
      areas: ref.length, months: T, repeat_pairs: ref.filter((a) => a.level === 'country').reduce((n, a) => n + a.pairs, 0), base_month: INDEX_BASE_MONTH,
    });

    // The awkward cases are there: no pairs (the parent's series), and a sector under its country.
    const area = new Map(ref.map((a) => [`${a.level}:${a.code}`, a]));
    const noPairs = area.get('sector:ZZ8 8')!;
    expect(noPairs.pairs).toBe(0);
    expect(area.get('outcode:ZZ8')!.pairs).toBe(0);
    expect(noPairs.parent).toBe('ZZ8');
    expect(ref.filter((a) => a.pairs === 0).length).toBeGreaterThan(1);
    const orphan = area.get('sector:ZZ9 9')!;
    expect(orphan.parent).toBe('England');
    expect(orphan.pairs).toBeGreaterThan(0);
    const series = got.filter((r) => r.area_code === 'ZZ9 9' || r.area_code === 'ZZ8 8');
    expect(series.length).toBe(2 * T);

    // price_index_monthly: the same rows as the reference series give, its index rounded to 3 places.
    const byKey = new Map<string, { a: (typeof ref)[number]; index: number }>(ref.flatMap((a) => [...toIndex(a.logLevel, base)].map((index, t) => [`${a.level} ${a.code} ${start + t}`, { a, index }] as const)));
    const monthOf = (m: string) => monthNo(m);
    expect(first.monthly.length).toBe(want.length);
    const wrong = first.monthly.filter((r) => {
      const w = byKey.get(`${r.area_level} ${r.area_code} ${monthOf(String(r.month))}`);
      return !w || r.parent_code !== w.a.parent || r.repeat_pairs !== w.a.pairs || !within(num(r.index), w.index, 1e-9, 0.0005 + 1e-12);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('gives identical rows when run again', async () => {
    await priceIndexStage.run(ctx);
    const again = await snapshot();
    expect(again.series.length).toBeGreaterThan(0);
    expect(again.series).toEqual(first.series);
    expect(again.monthly).toEqual(first.monthly);
    expect(again.growth).toEqual(first.growth);
    expect(again.quality).toEqual(first.quality);
  }, 120_000);
});
