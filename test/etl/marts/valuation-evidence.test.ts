import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { MIN_HMO_YIELD_SALES } from '../../../schemas/tables/valuation.ts';
import { stagedContext } from '../../support/region.ts';

let ctx: BuildContext;
const q = async (sql: string) => queryRows(ctx.conn, sql);

beforeAll(async () => {
  ctx = await stagedContext(4000, 11);
}, 120_000);

describe('valuation_evidence stage', () => {
  it('rent_lets holds every let of the 24 months the rent marts count, each with a position', async () => {
    const [a] = await q(`SELECT count(*)::INTEGER AS n, count(lat)::INTEGER AS located, count(DISTINCT evidence_id)::INTEGER AS ids FROM rent_lets`);
    const [b] = await q(`SELECT count(*)::INTEGER AS n FROM mart_rent_lets`);
    expect(a!.n).toBeGreaterThan(100);
    expect(a!.n).toBe(b!.n);
    expect(a!.ids).toBe(a!.n);
    expect(a!.located).toBe(a!.n);
    const [whole] = await q(`SELECT count(*)::INTEGER AS n FROM rent_lets WHERE let_type = 'whole' AND sector IS NOT NULL AND outcode IS NOT NULL`);
    expect(whole!.n).toBeGreaterThan(0);
  });

  it('sqft_sales: standard sales with a floor area, £/sq ft = index-adjusted price ÷ area, both segments', async () => {
    const rows = await q(`SELECT kind, new_build, count(*)::INTEGER AS n, max(abs(gbp_sqft - price_now / floor_area_sqft))::DOUBLE AS err FROM sqft_sales GROUP BY ALL`);
    expect(rows.some((r) => r.new_build === true)).toBe(true);
    expect(rows.some((r) => r.new_build === false)).toBe(true);
    for (const r of rows) expect(Number(r.err)).toBeLessThan(0.01);
    const [bad] = await q(`SELECT count(*)::INTEGER AS n FROM sqft_sales s JOIN sales x USING (uprn, date) WHERE x.category <> 'A' OR s.floor_area_sqft <= 0 OR s.lat IS NULL`);
    expect(bad!.n).toBe(0);
  });

  it('hmo_yields_area: ordered quartiles, plausible yields, enough sales', async () => {
    const rows = await q(`SELECT * FROM hmo_yields_area`);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(Number(r.sales_count)).toBeGreaterThanOrEqual(MIN_HMO_YIELD_SALES);
      expect(Number(r.p25_yield_pct)).toBeLessThanOrEqual(Number(r.gross_yield_pct));
      expect(Number(r.gross_yield_pct)).toBeLessThanOrEqual(Number(r.p75_yield_pct));
      expect(Number(r.gross_yield_pct)).toBeGreaterThan(1);
      expect(Number(r.gross_yield_pct)).toBeLessThan(25);
    }
  });
});
