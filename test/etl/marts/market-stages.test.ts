import { DuckDBInstance } from '@duckdb/node-api';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { discoverSources } from '../../../etl/pipeline/discover.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { MARKET_STAGES, STAGES } from '../../../etl/pipeline/stages.ts';
import { PUBLISHED_TABLES } from '../../../schemas/tables/index.ts';
import {
  INDEX_BASE_MONTH, MARKET_TABLES, MIN_LETS, MIN_REPEAT_PAIRS, MIN_SALES_12M, MIN_YIELD_SALES,
} from '../../../schemas/tables/market.ts';
import { solveAreaIndexes } from '../../../etl/stages/40-marts/10-price-index/area-index.ts';
import { toIndex } from '../../../etl/stages/40-marts/10-price-index/repeat-sales.ts';
import { monthNo } from '../../../schemas/months.ts';
import { priceIndexReferenceInputs } from '../../support/price-index-reference.ts';
import { quietLog, stagedContext, synthRegion } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const num = (v: unknown) => Number(v);

describe('market marts on a staged synthetic region', () => {
  let ctx: BuildContext;
  const q = (sql: string) => queryRows(ctx.conn, sql);
  const one = async (sql: string) => (await q(sql))[0]!;

  beforeAll(async () => {
    ctx = await stagedContext();
    for (const stage of MARKET_STAGES) await stage.run(ctx);
  }, 180_000);

  it('documents every column of every table it writes, in order', async () => {
    for (const t of MARKET_TABLES) {
      const cols = (await q(`SELECT column_name FROM information_schema.columns WHERE table_name = '${t.name}' ORDER BY ordinal_position`)).map((r) => r.column_name);
      expect(cols, t.name).toEqual(t.columns.map((c) => c.name));
      for (const c of t.columns) expect(c.source, `${t.name}.${c.name}`).not.toBe('');
      for (const k of t.sortKey) expect(cols).toContain(k);
    }
  });

  it('the region\'s sales and lets end in 2025-08: every window ends there, not at the build date (2025-10-01)', async () => {
    expect((await one(`SELECT strftime(max(date), '%Y-%m') AS m FROM sales WHERE date <= DATE '2025-10-01'`)).m).toBe('2025-08');
    expect((await one(`SELECT strftime(max(let_date::DATE), '%Y-%m') AS m FROM stg_rental_evidence WHERE let_date::DATE <= DATE '2025-10-01'`)).m).toBe('2025-08');
  });

  it('index: 100 at the base month for every area; months from the first sale to Price Paid\'s latest month', async () => {
    const r = await one(`SELECT count(DISTINCT (area_level, area_code))::INT AS areas, count(*) FILTER (WHERE month = '${INDEX_BASE_MONTH}' AND index = 100)::INT AS at_base,
      min(month) AS first, max(month) AS last, (count(*) / count(DISTINCT (area_level, area_code)))::INT AS months_each FROM price_index_monthly`);
    expect(num(r.areas)).toBeGreaterThan(20);
    expect(r.at_base).toBe(r.areas);
    expect(r.last).toBe('2025-08');
    const first = await one(`SELECT strftime(min(date), '%Y-%m') AS m FROM sales`);
    expect(r.first).toBe(first.m);
    const [fy, fm] = String(r.first).split('-').map(Number);
    expect(r.months_each).toBe((2025 - fy!) * 12 + 8 - fm! + 1);
    const per = await one(`SELECT count(DISTINCT n)::INT AS d FROM (SELECT count(*) AS n FROM price_index_monthly GROUP BY area_level, area_code)`);
    expect(per.d).toBe(1);
    expect((await one('SELECT count(*)::INT AS n FROM price_index_monthly WHERE index IS NULL OR NOT isfinite(index) OR index <= 0')).n).toBe(0);
  });

  it('index levels: every country, district, outcode and sector with sales, each under a parent one level up', async () => {
    for (const [level, col] of [['country', 'country'], ['district', 'la_code'], ['outcode', 'outcode'], ['sector', 'sector']] as const) {
      const r = await one(`SELECT count(*)::INT AS n FROM (SELECT DISTINCT a.${col} FROM sales s JOIN addresses a USING (uprn) WHERE a.${col} IS NOT NULL AND s.date <= DATE '2025-10-01'
        EXCEPT SELECT area_code FROM price_index_monthly WHERE area_level = '${level}')`);
      expect(r.n, level).toBe(0);
    }
    const orphans = await one(`SELECT count(*)::INT AS n FROM price_growth c WHERE c.area_level <> 'country' AND NOT EXISTS (
      SELECT 1 FROM price_growth p WHERE p.area_code = c.parent_code AND p.area_level = CASE c.area_level WHEN 'sector' THEN 'outcode' WHEN 'outcode' THEN 'district' ELSE 'country' END)`);
    expect(orphans.n).toBe(0);
  });

  it('the solved index is the one from the pair cells grouped by a JSON key per area path (the stage streams them summed per area)', async () => {
    // The stage streams each level's cells summed per area in DuckDB (Σy exactly, as DECIMAL);
    // the reference groups the path cells by a key per row and sums them in JS, so the two
    // agree to the last few bits of a double: areas, order, months and pairs exactly.
    const start = num((await one('SELECT min(month_no) AS m FROM mart_market_sales')).m);
    // The index runs to Price Paid's latest month (not the build's): its last sale's month.
    const last = num((await one(`SELECT max(year(date) * 12 + month(date) - 1) AS m FROM sales WHERE date <= DATE '2025-10-01'`)).m);
    const T = last - start + 1;
    const { paths, pathCells } = await priceIndexReferenceInputs(q, start);
    expect(pathCells.length).toBeGreaterThan(20);
    const base = monthNo(INDEX_BASE_MONTH) - start;
    const ref = solveAreaIndexes(T, paths, pathCells).flatMap((s) => [...toIndex(s.logLevel, base)].map((index, t) => ({ key: `${s.level} ${s.code} ${start + t} ${s.pairs}`, index })));
    const rows = await q('SELECT area_level, area_code, month_no, index, repeat_pairs FROM mart_index_series');
    expect(rows.map((r) => `${r.area_level} ${r.area_code} ${r.month_no} ${r.repeat_pairs}`)).toEqual(ref.map((w) => w.key));
    const off = rows.map((r, i) => ({ key: ref[i]!.key, got: num(r.index), want: ref[i]!.index })).filter((x) => !(Math.abs(x.got - x.want) <= 1e-9 * Math.abs(x.want)));
    expect(off.slice(0, 5)).toEqual([]);
  });

  it('volumes equal the sales counts, and medians are those of the sales: matched ones by their home, the rest by their recorded postcode', async () => {
    // Every sale an area holds: matched ones where their home is, unmatched ones where the
    // postcode directory places their recorded postcode (docs/open-data.md).
    const placed = `(
      SELECT a.sector, a.outcode, s.price, s.date FROM sales s JOIN addresses a USING (uprn)
      UNION ALL
      SELECT left(u.postcode, length(u.postcode) - 2), split_part(u.postcode, ' ', 1), u.price, u.date FROM sales_unmatched u
      WHERE u.postcode IN (SELECT pcds FROM stg_onspd WHERE oslaua IS NOT NULL) AND u.price > 0
    )`;
    const total = await one(`SELECT count(*)::INT AS n FROM ${placed} WHERE date <= DATE '2025-10-01'`);
    const unmatched = await one(`SELECT count(*)::INT AS n FROM sales_unmatched WHERE date <= DATE '2025-10-01'`);
    expect(unmatched.n).toBeGreaterThan(0);
    const byLevel = await q(`SELECT area_level, sum(sales_count)::INT AS n FROM price_index_monthly GROUP BY ALL`);
    expect(byLevel.find((r) => r.area_level === 'country')!.n).toBe(total.n);
    const bySector = await one(`SELECT count(*)::INT AS n FROM ${placed} WHERE sector IS NOT NULL AND date <= DATE '2025-10-01'`);
    expect(byLevel.find((r) => r.area_level === 'sector')!.n).toBe(bySector.n);
    const mismatch = await one(`
      WITH direct AS (
        SELECT outcode, strftime(date, '%Y-%m') AS month, count(*) AS n, median(price) AS med
        FROM ${placed} WHERE date <= DATE '2025-10-01' GROUP BY ALL)
      SELECT count(*)::INT AS n FROM direct d JOIN price_index_monthly p ON p.area_level = 'outcode' AND p.area_code = d.outcode AND p.month = d.month
      WHERE p.sales_count <> d.n OR p.median_price <> d.med`);
    expect(mismatch.n).toBe(0);
    const empty = await one(`SELECT count(*)::INT AS n FROM price_index_monthly WHERE (sales_count = 0) <> (median_price IS NULL)`);
    expect(empty.n).toBe(0);
  });

  it('sales_12m and enough_sales follow their definitions (the 12 calendar months to each month, summed here)', async () => {
    const rows = await q(`SELECT area_level, area_code, month, sales_count, sales_12m, repeat_pairs, enough_sales FROM price_index_monthly`);
    expect(rows.length).toBeGreaterThan(0);
    // Sales per area and calendar month, then each row's trailing 12 months by month arithmetic
    // (not by row position: a missing month must not widen the window).
    const counts = new Map<string, number>();
    const key = (r: Record<string, unknown>, month: string) => `${r.area_level}|${r.area_code}|${month}`;
    for (const r of rows) counts.set(key(r, String(r.month)), num(r.sales_count));
    const monthsBack = (month: string, k: number) => {
      const [y, m] = month.split('-').map(Number) as [number, number];
      const i = y * 12 + (m - 1) - k;
      return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
    };
    const wrong: string[] = [];
    for (const r of rows) {
      let s12 = 0;
      for (let k = 0; k < 12; k++) s12 += counts.get(key(r, monthsBack(String(r.month), k))) ?? 0;
      const enough = num(r.repeat_pairs) >= MIN_REPEAT_PAIRS && s12 >= MIN_SALES_12M;
      if (num(r.sales_12m) !== s12 || r.enough_sales !== enough) wrong.push(`${key(r, String(r.month))}: sales_12m ${r.sales_12m} (expected ${s12}), enough ${r.enough_sales}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    const mixed = await one(`SELECT count(*) FILTER (WHERE enough_sales)::INT AS yes, count(*) FILTER (WHERE NOT enough_sales)::INT AS no FROM price_growth`);
    expect(num(mixed.yes)).toBeGreaterThan(0);
    expect(num(mixed.no)).toBeGreaterThan(0);
  });

  it('growth is the index ratio over 1, 3, 5 and 10 years to Price Paid\'s latest month', async () => {
    const rows = await q(`SELECT g.*, p1.index AS i1, p10.index AS i10 FROM price_growth g
      JOIN price_index_monthly p1 ON p1.area_level = g.area_level AND p1.area_code = g.area_code AND p1.month = '2024-08'
      JOIN price_index_monthly p10 ON p10.area_level = g.area_level AND p10.area_code = g.area_code AND p10.month = '2015-08'`);
    expect(rows.length).toBe(num((await one('SELECT count(*) AS n FROM price_growth')).n));
    for (const r of rows) {
      expect(r.as_of_month).toBe('2025-08');
      expect(num(r.growth_1y)).toBeCloseTo(num(r.index) / num(r.i1) - 1, 3);
      expect(num(r.growth_10y)).toBeCloseTo(num(r.index) / num(r.i10) - 1, 3);
    }
    const england = await one(`SELECT * FROM price_growth WHERE area_level = 'country' AND area_code = 'England'`);
    expect(num(england.growth_10y)).toBeGreaterThan(0.2); // the synthetic market rose ~45% over 2015–2025
  });

  it('£ per sq ft: quartiles ordered, counts those of recent sales with a floor area', async () => {
    const bad = await one(`SELECT count(*)::INT AS n FROM price_per_sqft WHERE NOT (p25_gbp_sqft <= median_gbp_sqft AND median_gbp_sqft <= p75_gbp_sqft) OR sales_count < 1 OR iqr_ratio < 0`);
    expect(bad.n).toBe(0);
    const kinds = await q(`SELECT DISTINCT property_type, segment FROM price_per_sqft ORDER BY ALL`);
    expect(new Set(kinds.map((k) => k.property_type))).toEqual(new Set(['All', 'Detached', 'Semi-Detached', 'Terraced', 'Flat']));
    expect(new Set(kinds.map((k) => k.segment))).toEqual(new Set(['all', 'new_build', 'resale']));
    const recent = await one(`SELECT count(*)::INT AS n FROM sales s JOIN properties p USING (uprn)
      WHERE s.category = 'A' AND s.date >= DATE '2023-09-01' AND s.date <= DATE '2025-08-31' AND p.floor_area_sqft > 0 AND p.property_type IS NOT NULL AND p.la_code IS NOT NULL`);
    const districts = await one(`SELECT sum(sales_count)::INT AS n FROM price_per_sqft WHERE area_level = 'district' AND property_type = 'All' AND segment = 'all'`);
    expect(districts.n).toBe(recent.n);
    const split = await one(`SELECT sum(sales_count) FILTER (WHERE segment = 'all')::INT AS a, sum(sales_count) FILTER (WHERE segment <> 'all')::INT AS b FROM price_per_sqft WHERE property_type = 'All'`);
    expect(split.a).toBe(split.b);
    const plausible = await one(`SELECT min(median_gbp_sqft) AS lo, max(median_gbp_sqft) AS hi FROM price_per_sqft WHERE area_level = 'district' AND property_type = 'All' AND segment = 'all'`);
    expect(num(plausible.lo)).toBeGreaterThan(100);
    expect(num(plausible.hi)).toBeLessThan(2500);
  });

  it('postcodes: every address-base postcode present once; terminated ONSPD postcodes flagged with their date', async () => {
    expect((await one(`SELECT count(*)::INT AS n FROM (SELECT DISTINCT postcode FROM addresses EXCEPT SELECT postcode FROM postcodes)`)).n).toBe(0);
    expect((await one(`SELECT (count(*) - count(DISTINCT postcode))::INT AS n FROM postcodes`)).n).toBe(0);
    expect((await one(`SELECT count(*)::INT AS n FROM (SELECT pcds FROM stg_onspd EXCEPT SELECT postcode FROM postcodes)`)).n).toBe(0);
    const term = await one(`SELECT count(*)::INT AS n, count(*) FILTER (WHERE p.terminated AND p.date_terminated = make_date(left(o.doterm, 4)::INT, right(o.doterm, 2)::INT, 1))::INT AS ok
      FROM stg_onspd o JOIN postcodes p ON p.postcode = o.pcds WHERE o.doterm IS NOT NULL`);
    expect(num(term.n)).toBeGreaterThan(0);
    expect(term.ok).toBe(term.n);
    expect((await one(`SELECT count(*)::INT AS n FROM postcodes WHERE NOT terminated AND date_terminated IS NOT NULL`)).n).toBe(0);
    const counts = await one(`SELECT (SELECT sum(address_count) FROM postcodes)::INT AS a, (SELECT count(*) FROM addresses WHERE postcode IS NOT NULL)::INT AS b`);
    expect(counts.a).toBe(counts.b);
    const sample = await one(`SELECT postcode, sales_5y, median_price_5y, outcode, sector FROM postcodes WHERE sales_5y > 2 ORDER BY postcode LIMIT 1`);
    const direct = await one(`SELECT count(*)::INT AS n, median(price) AS m FROM sales JOIN addresses USING (uprn)
      WHERE postcode = '${String(sample.postcode)}' AND date > DATE '2020-08-31' AND date <= DATE '2025-08-31'`);
    expect(sample.sales_5y).toBe(direct.n);
    expect(num(sample.median_price_5y)).toBe(num(direct.m));
    expect(String(sample.postcode).startsWith(`${String(sample.sector)} `.slice(0, -1))).toBe(true);
    const located = await one(`SELECT count(*) FILTER (WHERE lat BETWEEN 49 AND 61 AND country IN ('England', 'Wales', 'Scotland'))::INT AS ok, count(*)::INT AS n FROM postcodes WHERE NOT terminated`);
    expect(located.ok).toBe(located.n);
  });

  it('rents by area and bedrooms: percentiles ordered, ONS fallback flagged and equal to the ONS figures', async () => {
    const bad = await one(`SELECT count(*)::INT AS n FROM rents_area WHERE NOT (p25_pcm <= median_pcm AND median_pcm <= p75_pcm) OR bedrooms NOT BETWEEN 0 AND 4 OR sample_size < 1`);
    expect(bad.n).toBe(0);
    const sources = await q(`SELECT source, min(evidence_count)::INT AS lo, max(evidence_count)::INT AS hi, count(*)::INT AS n FROM rents_area GROUP BY ALL`);
    const by = Object.fromEntries(sources.map((s) => [String(s.source), s]));
    expect(num(by.evidence?.lo)).toBeGreaterThanOrEqual(MIN_LETS);
    // A district with no lets of a category takes ONS's; one with a few is shrunk toward ONS's.
    expect(num(by.ons_district?.n ?? 0) + num(by.shrunk?.n ?? 0)).toBeGreaterThan(0);
    if (by.ons_district) expect(num(by.ons_district.hi)).toBe(0);
    if (by.shrunk) expect(num(by.shrunk.hi)).toBeLessThan(MIN_LETS);
    if (by.evidence_thin) expect(num(by.evidence_thin.hi)).toBeLessThan(MIN_LETS);
    const ons = await one(`SELECT count(*)::INT AS n FROM rents_area r JOIN stg_ons_rents o ON o.area_code = r.la_code AND o.bedrooms = r.bedrooms
      WHERE r.source = 'ons_district' AND (r.median_pcm <> o.median OR r.sample_size IS DISTINCT FROM o.count)`);
    expect(ons.n).toBe(0);
    const direct = await one(`SELECT count(*)::INT AS n, median(rent_pcm) AS m FROM stg_rental_evidence
      WHERE let_type = 'whole' AND postcode LIKE 'BS1 %' AND least(bedrooms, 4) = 2 AND let_date::DATE > DATE '2023-08-31' AND let_date::DATE <= DATE '2025-08-31'`);
    const bs1 = await one(`SELECT * FROM rents_area WHERE area_level = 'outcode' AND area_code = 'BS1' AND bedrooms = 2`);
    expect(bs1.evidence_count).toBe(direct.n);
    if (bs1.source === 'evidence') expect(num(bs1.median_pcm)).toBe(num(direct.m));
  });

  it('rents on thin samples: shrunk toward the wider area, never falling with bedrooms, every row with its sample size', async () => {
    // Thin rows say what they were shrunk toward and how much their own lets weigh.
    const thin = await one(`SELECT count(*)::INT AS n, count(*) FILTER (WHERE prior_level IS NULL OR credibility >= 1 OR credibility <= 0)::INT AS bad
      FROM rents_area WHERE source = 'shrunk'`);
    expect(thin.n).toBeGreaterThan(0);
    expect(thin.bad).toBe(0);
    const levels = await q(`SELECT area_level, prior_level FROM rents_area WHERE source = 'shrunk' GROUP BY ALL ORDER BY ALL`);
    for (const l of levels) expect({ sector: 'outcode', outcode: 'district', district: 'ons_district' }[String(l.area_level)]).toBe(l.prior_level);
    // A shrunk figure lies between the area's own median and the wider area's (computed here
    // from the lets and the wider row, before the bedrooms guard, for rows the guard left alone,
    // and whose wider row it left alone: a sector is shrunk toward its outcode's figure before
    // the guard raises that to its smaller group's median, as BS7's 3-bed is in this region).
    const between = await one(`WITH own AS (
        SELECT sector AS code, least(bedrooms, 4) AS bedrooms, median(rent_pcm) AS m FROM mart_rent_lets WHERE let_type = 'whole' AND sector IS NOT NULL GROUP BY ALL)
      SELECT count(*)::INT AS n, count(*) FILTER (WHERE r.median_pcm < least(own.m, w.median_pcm) - 0.01 OR r.median_pcm > greatest(own.m, w.median_pcm) + 0.01)::INT AS outside
      FROM rents_area r JOIN own ON own.code = r.area_code AND own.bedrooms = r.bedrooms
      JOIN rents_area w ON w.area_level = 'outcode' AND w.area_code = split_part(r.area_code, ' ', 1) AND w.bedrooms = r.bedrooms
      WHERE r.area_level = 'sector' AND r.source = 'shrunk'
        AND NOT EXISTS (SELECT 1 FROM rents_area x WHERE x.area_level = 'sector' AND x.area_code = r.area_code AND x.bedrooms = r.bedrooms - 1 AND x.median_pcm >= r.median_pcm - 0.01)
        AND NOT EXISTS (SELECT 1 FROM rents_area v WHERE v.area_level = 'outcode' AND v.area_code = w.area_code AND v.bedrooms = w.bedrooms - 1 AND abs(v.median_pcm - w.median_pcm) < 0.01)`);
    expect(between.n).toBeGreaterThan(0);
    expect(between.outside).toBe(0);
    // Nowhere does a thin group rent for less than the next smaller one (or more than the next larger one).
    const inversions = await q(`SELECT a.area_level, a.area_code, a.bedrooms, a.median_pcm AS smaller, b.median_pcm AS larger, a.sample_size AS n_smaller, b.sample_size AS n_larger
      FROM rents_area a JOIN rents_area b ON b.area_level = a.area_level AND b.area_code = a.area_code AND b.bedrooms = a.bedrooms + 1
      WHERE b.median_pcm < a.median_pcm - 0.005 AND (a.source NOT IN ('evidence', 'ons_district') OR b.source NOT IN ('evidence', 'ons_district'))`);
    expect(inversions).toEqual([]);
    const missing = await one(`SELECT count(*)::INT AS n FROM rents_area WHERE sample_size IS NULL`);
    expect(missing.n).toBe(0);
    const yields = await one(`SELECT count(*)::INT AS n FROM yields_area WHERE rent_sample_size IS NULL OR sales_count IS NULL`);
    expect(yields.n).toBe(0);
  });

  it('room rents: ordered percentiles, room lets only, ONS Room fallback', async () => {
    const bad = await one(`SELECT count(*)::INT AS n FROM rents_rooms WHERE NOT (p25_pcm <= median_pcm AND median_pcm <= p75_pcm)`);
    expect(bad.n).toBe(0);
    const rooms = await one(`SELECT count(*)::INT AS n FROM stg_rental_evidence WHERE let_type = 'room' AND let_date::DATE > DATE '2023-08-31' AND let_date::DATE <= DATE '2025-08-31'`);
    const la = await one(`SELECT sum(evidence_count)::INT AS n FROM rents_rooms WHERE area_level = 'sector'`);
    expect(la.n).toBe(rooms.n);
    const fallback = await one(`SELECT count(*)::INT AS n FROM rents_rooms r JOIN stg_ons_rents o ON o.area_code = r.la_code AND o.category = 'room'
      WHERE r.source = 'ons_district' AND r.median_pcm <> o.median`);
    expect(fallback.n).toBe(0);
    const whole = await one(`SELECT median(median_pcm) AS m FROM rents_area WHERE area_level = 'district' AND bedrooms = 3`);
    const room = await one(`SELECT median(median_pcm) AS m FROM rents_rooms WHERE area_level = 'district'`);
    expect(num(room.m)).toBeLessThan(num(whole.m));
  });

  it('yields: rent × 12 ÷ price, where both exist with enough sales', async () => {
    const rows = await q(`SELECT * FROM yields_area`);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(num(r.gross_yield_pct)).toBeCloseTo((100 * num(r.median_rent_pcm) * 12) / num(r.median_price), 1);
      expect(num(r.sales_count)).toBeGreaterThanOrEqual(MIN_YIELD_SALES);
    }
    const med = await one(`SELECT median(gross_yield_pct) AS m FROM yields_area WHERE area_level = 'district'`);
    expect(num(med.m)).toBeGreaterThan(2.5); // the synthetic region's gross yields are 3.5–6%
    expect(num(med.m)).toBeLessThan(8);
  });

  it('UK HPI: one row per area and month as loaded', async () => {
    const r = await one(`SELECT count(*)::INT AS n, count(DISTINCT (area_code, month))::INT AS d, (SELECT count(*) FROM stg_ukhpi)::INT AS staged FROM ukhpi_monthly`);
    expect(num(r.n)).toBeGreaterThan(0);
    expect(r.d).toBe(r.n);
    expect(r.n).toBe(r.staged);
  });
});

describe('market marts without the data', () => {
  const tmp = tempDir('pi-market-empty-');
  afterAll(tmp.cleanup);

  async function contextOn(dir: string): Promise<BuildContext> {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const { files, ignored } = await discoverSources(dir, SOURCES);
    const now = new Date('2025-10-01T00:00:00Z');
    // Asserted rather than annotated: the context grows fields as stages need them.
    const ctx = {
      db, conn, sourcesDir: dir, buildDir: tmp.dir, buildId: 'empty', now, today: '2025-10-01', files, ignored, sources: [],
      published: [...PUBLISHED_TABLES], artifacts: {}, matchRates: {}, quality: {}, log: quietLog, progress: () => undefined,
    } as BuildContext;
    for (const stage of STAGES) await stage.run(ctx);
    for (const stage of MARKET_STAGES) await stage.run(ctx);
    return ctx;
  }

  it('produces every table, empty, when no source has rows', async () => {
    const dir = join(tmp.dir, 'none');
    mkdirSync(dir);
    const ctx = await contextOn(dir);
    for (const t of MARKET_TABLES) expect((await queryRows(ctx.conn, `SELECT count(*)::INT AS n FROM ${t.name}`))[0]!.n, t.name).toBe(0);
  }, 60_000);

  it('with only the ONS rents table: district rents from ONS, nothing else', async () => {
    const region = await synthRegion();
    const dir = join(tmp.dir, 'ons-only');
    mkdirSync(join(dir, 'rents'), { recursive: true });
    copyFileSync(join(region, 'rents', 'ons-prms.csv'), join(dir, 'rents', 'ons-prms.csv'));
    const ctx = await contextOn(dir);
    const rows = await queryRows(ctx.conn, `SELECT area_level, source, count(*)::INT AS n FROM rents_area GROUP BY ALL`);
    expect(rows).toEqual([{ area_level: 'district', source: 'ons_district', n: expect.any(Number) }]);
    const rooms = await queryRows(ctx.conn, `SELECT DISTINCT source FROM rents_rooms`);
    expect(rooms).toEqual([{ source: 'ons_district' }]);
    for (const t of ['price_index_monthly', 'price_growth', 'price_per_sqft', 'postcodes', 'yields_area']) {
      expect((await queryRows(ctx.conn, `SELECT count(*)::INT AS n FROM ${t}`))[0]!.n, t).toBe(0);
    }
  }, 120_000);
});
