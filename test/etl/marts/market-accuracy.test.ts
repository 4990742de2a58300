import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { MARKET_STAGES } from '../../../etl/pipeline/stages.ts';
import { stagedContext } from '../../support/region.ts';

/**
 * Accuracy of the price index and the area rents against the synthetic region's truth
 * (docs/marts.md quotes the figures this prints). Region size: MARKET_ACCURACY_ADDRESSES,
 * default 10,000 (seed 42).
 */
const ADDRESSES = Number(process.env.MARKET_ACCURACY_ADDRESSES ?? 10_000);
// The truth ends at the generator's today (2025-09); the build month (2025-10) is past it.
const AS_OF = ['2016-10', '2017-10', '2018-10', '2019-10', '2020-10', '2021-10', '2022-10', '2023-10', '2024-10', '2025-04', '2025-09'];

describe(`market marts against the truth (${ADDRESSES} addresses, seed 42)`, () => {
  let ctx: BuildContext;
  let truth: string;

  beforeAll(async () => {
    ctx = await stagedContext(ADDRESSES, 42);
    for (const stage of MARKET_STAGES) await stage.run(ctx);
    truth = join(ctx.sourcesDir, 'truth').replaceAll("'", "''");
  }, 600_000);

  it('index growth per postcode district over 1, 5 and 10 years is within a few points of the true index', async () => {
    const growth = (from: string, code: string) => `SELECT ${code} AS code, month,
        index / lag(index, 12) OVER w - 1 AS g1, index / lag(index, 60) OVER w - 1 AS g5, index / lag(index, 120) OVER w - 1 AS g10
        FROM ${from} WINDOW w AS (PARTITION BY ${code} ORDER BY month)`;
    const rows = await queryRows(ctx.conn, `
      WITH t AS (${growth(`read_csv('${truth}/area-index.csv', header = true, columns = {'district': 'VARCHAR', 'month': 'VARCHAR', 'index': 'DOUBLE'})`, 'district')}),
      o AS (SELECT parent_code, g.* FROM (${growth(`(SELECT * FROM price_index_monthly WHERE area_level = 'outcode')`, 'area_code')}) g
            JOIN (SELECT DISTINCT area_code, parent_code FROM price_index_monthly WHERE area_level = 'outcode') p ON p.area_code = g.code),
      d AS (${growth(`(SELECT * FROM price_index_monthly WHERE area_level = 'district')`, 'area_code')}),
      joined AS (
        SELECT o.month, o.g1 - t.g1 AS e1, o.g5 - t.g5 AS e5, o.g10 - t.g10 AS e10,
               d.g1 - t.g1 AS la_e1, d.g5 - t.g5 AS la_e5, d.g10 - t.g10 AS la_e10, t.g10 AS true_g10
        FROM o JOIN t ON t.code = o.code AND t.month = o.month
        JOIN d ON d.code = o.parent_code AND d.month = o.month
        WHERE o.month IN (${AS_OF.map((m) => `'${m}'`).join(', ')})
      ),
      labelled AS (
        SELECT 'all as-of months' AS as_of, * FROM joined
        UNION ALL SELECT 'latest (2025-09)', * FROM joined WHERE month = '2025-09'
      )
      SELECT as_of, count(*)::INT AS n,
        avg(abs(e1)) AS mae_1y, avg(abs(e5)) AS mae_5y, avg(abs(e10)) AS mae_10y,
        avg(e1) AS bias_1y, avg(e5) AS bias_5y, avg(e10) AS bias_10y,
        avg(abs(la_e1)) AS la_mae_1y, avg(abs(la_e5)) AS la_mae_5y, avg(abs(la_e10)) AS la_mae_10y,
        avg(abs(true_g10)) AS true_abs_10y
      FROM labelled GROUP BY as_of ORDER BY as_of`);
    const fmt = (v: unknown) => (typeof v === 'number' ? `${(100 * v).toFixed(1)} pp` : v);
    console.log('index growth error per postcode district (outcode index vs truth; la_ = the local-authority index used instead):');
    console.table(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'n' || k === 'as_of' ? v : fmt(v)]))));
    const all = rows.find((r) => r.as_of === 'all as-of months')!;
    expect(all.n).toBeGreaterThan(100);
    expect(Number(all.mae_1y)).toBeLessThan(0.05);
    expect(Number(all.mae_5y)).toBeLessThan(0.07);
    expect(Number(all.mae_10y)).toBeLessThan(0.1);
    // The outcode's own index must beat borrowing its local authority's over 10 years.
    expect(Number(all.mae_10y)).toBeLessThan(Number(all.la_mae_10y));
  }, 120_000);

  it('area median rents predict the true rents of the homes in the area (median absolute percentage error)', async () => {
    const rows = await queryRows(ctx.conn, `
      WITH homes AS (
        SELECT uprn, postcode, split_part(postcode, ' ', 1) AS outcode, left(postcode, length(postcode) - 2) AS sector, la_code,
               least(bedrooms, 4) AS bedrooms, true_rent_pcm
        FROM (SELECT uprn, postcode, la_code, bedrooms::INT AS bedrooms, true_rent_pcm::DOUBLE AS true_rent_pcm
              FROM read_csv('${truth}/properties.csv', header = true, all_varchar = true))
        WHERE true_rent_pcm > 0
      ),
      ape AS (
        SELECT
          abs(s.median_pcm / h.true_rent_pcm - 1) AS sector_ape,
          abs(o.median_pcm / h.true_rent_pcm - 1) AS outcode_ape,
          abs(d.median_pcm / h.true_rent_pcm - 1) AS district_ape,
          -- The cascade a rent endpoint would use: the most local level with enough lets, else the district.
          abs(coalesce(CASE WHEN s.source = 'evidence' THEN s.median_pcm END, CASE WHEN o.source = 'evidence' THEN o.median_pcm END, d.median_pcm) / h.true_rent_pcm - 1) AS cascade_ape
        FROM homes h
        LEFT JOIN rents_area s ON s.area_level = 'sector' AND s.area_code = h.sector AND s.bedrooms = h.bedrooms
        LEFT JOIN rents_area o ON o.area_level = 'outcode' AND o.area_code = h.outcode AND o.bedrooms = h.bedrooms
        LEFT JOIN rents_area d ON d.area_level = 'district' AND d.area_code = h.la_code AND d.bedrooms = h.bedrooms
      )
      SELECT count(*)::INT AS homes, count(cascade_ape)::INT AS covered,
        median(sector_ape) AS sector, median(outcode_ape) AS outcode, median(district_ape) AS district, median(cascade_ape) AS cascade
      FROM ape`);
    const noise = await queryRows(ctx.conn, `SELECT median(abs(observed_rent_pcm / true_rent_pcm - 1)) AS floor
      FROM read_csv('${truth}/rentals.csv', header = true) WHERE let_type = 'whole'`);
    const r = rows[0]!;
    console.log('rent MdAPE (area median for the bedroom count vs each home\'s true rent today):',
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' && v < 1 ? `${(100 * v).toFixed(1)}%` : v])),
      `noise floor of a single observed let vs its true rent: ${(100 * Number(noise[0]!.floor)).toFixed(1)}%`);
    expect(Number(r.covered)).toBeGreaterThan(0.9 * Number(r.homes));
    expect(Number(r.cascade)).toBeLessThan(0.3);
  }, 120_000);
});
