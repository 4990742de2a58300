import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { strMartsStage } from '../../../etl/stages/40-marts/70-str/stage.ts';
import { STR_TABLES } from '../../../schemas/tables/str.ts';
import { STR_METHOD } from '../../../etl/stages/40-marts/70-str/params.ts';
import { stagedContext } from '../../support/region.ts';

const q = async (ctx: BuildContext, sql: string) => queryRows(ctx.conn, sql);
const one = async (ctx: BuildContext, sql: string) => (await q(ctx, sql))[0] ?? {};
const n = (v: unknown) => Number(v);

describe('STR marts on a staged synthetic region', () => {
  let ctx: BuildContext;
  beforeAll(async () => {
    ctx = await stagedContext();
    await strMartsStage.run(ctx);
  }, 300_000);

  it('publishes exactly the documented columns, in order, for every table', async () => {
    for (const t of STR_TABLES) {
      const cols = await q(ctx, `SELECT column_name FROM information_schema.columns WHERE table_name = '${t.name}' ORDER BY ordinal_position`);
      expect(cols.map((c) => c.column_name), t.name).toEqual(t.columns.map((c) => c.name));
      for (const c of t.columns) expect(c.source.length > 0 && c.description.length > 0, `${t.name}.${c.name}`).toBe(true);
      for (const k of t.sortKey) expect(t.columns.map((c) => c.name)).toContain(k);
    }
  });

  it('str_listings: one row per staged listing, ids as text, every listing placed in an area', async () => {
    const r = await one(ctx, `SELECT (SELECT count(DISTINCT id) FROM stg_airbnb_listings) AS staged, count(*) AS rows, count(DISTINCT id) AS ids,
      count(*) FILTER (WHERE postcode IS NULL) AS unplaced, count(*) FILTER (WHERE active) AS active,
      count(*) FILTER (WHERE sector <> left(postcode, length(postcode) - 2) OR outcode <> split_part(postcode, ' ', 1)) AS bad_geo,
      count(*) FILTER (WHERE listing_type NOT IN ('entire_home', 'private_room', 'shared_room', 'hotel_room')) AS bad_type,
      count(*) FILTER (WHERE property_type NOT IN ('house', 'apartment')) AS bad_class,
      count(*) FILTER (WHERE (price_tier IS NULL) <> (price_gbp IS NULL)) AS tier_mismatch,
      count(*) FILTER (WHERE occupancy_ltm NOT BETWEEN 0 AND ${STR_METHOD.maxOccupancy} + 1e-9) AS bad_occ,
      count(*) FILTER (WHERE active AND NOT listed) AS active_unlisted
      FROM str_listings`);
    expect(n(r.rows)).toBeGreaterThan(10);
    expect(n(r.rows)).toBe(n(r.staged));
    expect(n(r.ids)).toBe(n(r.rows));
    for (const k of ['unplaced', 'bad_geo', 'bad_type', 'bad_class', 'tier_mismatch', 'bad_occ', 'active_unlisted']) expect(n(r[k]), k).toBe(0);
    expect(n(r.active)).toBeGreaterThan(0);
    // Ids pass 2^53 in the synthetic region as in recent scrapes: compare exactly as text.
    const big = await one(ctx, `SELECT count(*) AS n FROM str_listings l JOIN stg_airbnb_listings s USING (id) WHERE length(l.id) >= 17`);
    expect(n(big.n)).toBeGreaterThan(0);
  });

  it('str_listings: the last-12-month figures are the sums of its listing months', async () => {
    const r = await one(ctx, `WITH s AS (
        SELECT id, sum(booked_nights) AS b, sum(available_nights) AS a, sum(revenue) AS rev FROM str_listing_months
        WHERE month > DATE '2025-09-01' - INTERVAL 12 MONTH GROUP BY id)
      SELECT count(*) FILTER (WHERE abs(l.booked_nights_ltm - s.b) > 1e-6 OR abs(l.available_nights_ltm - s.a) > 1e-6 OR abs(l.revenue_ltm - s.rev) > 1e-6) AS bad,
             count(*) AS n FROM str_listings l JOIN s USING (id)`);
    expect(n(r.bad)).toBe(0);
    expect(n(r.n)).toBeGreaterThan(0);
  });

  it('str_listing_months: 24 consecutive months per listing ending at the scrape month, with consistent nights', async () => {
    const r = await one(ctx, `WITH per AS (SELECT id, count(*) AS months, min(month) AS first, max(month) AS last, count(DISTINCT month) AS distinct_months FROM str_listing_months GROUP BY id)
      SELECT count(*) AS listings, count(*) FILTER (WHERE months <> ${STR_METHOD.historyMonths} OR distinct_months <> months) AS bad_count,
             count(*) FILTER (WHERE last <> DATE '2025-09-01' OR first <> DATE '2023-10-01') AS bad_span FROM per`);
    expect(n(r.listings)).toBeGreaterThan(10);
    expect(n(r.bad_count)).toBe(0);
    expect(n(r.bad_span)).toBe(0);
    const bad = await one(ctx, `SELECT
      count(*) FILTER (WHERE booked_nights < 0 OR booked_nights > available_nights + 1e-9) AS booked_over,
      count(*) FILTER (WHERE occupancy IS NOT NULL AND occupancy NOT BETWEEN 0 AND 1) AS occ_range,
      count(*) FILTER (WHERE (occupancy IS NULL) <> (available_nights = 0)) AS occ_null,
      count(*) FILTER (WHERE live AND abs(available_nights + blocked_nights - days_in_month) > 1e-9) AS nights_sum,
      count(*) FILTER (WHERE NOT live AND (available_nights <> 0 OR booked_nights <> 0 OR revenue <> 0 OR adr IS NOT NULL)) AS dead_not_zero,
      count(*) FILTER (WHERE live AND abs(revenue - booked_nights * adr) > 1e-6) AS revenue_mismatch,
      count(*) FILTER (WHERE live AND (adr IS NULL OR adr <= 0)) AS no_adr
      FROM str_listing_months`);
    for (const [k, v] of Object.entries(bad)) expect(n(v), k).toBe(0);
  });

  it('str_listing_months: a listing has no nights before its first review month, and reviews drive its booked nights', async () => {
    const r = await one(ctx, `SELECT count(*) FILTER (WHERE m.month < l.live_from AND m.live) AS early,
      count(*) FILTER (WHERE l.reviews_ltm > 0 AND l.active AND l.booked_nights_ltm = 0) AS reviewed_unbooked,
      count(*) FILTER (WHERE l.number_of_reviews = 0 AND m.booked_nights > 0) AS unreviewed_booked
      FROM str_listing_months m JOIN str_listings l USING (id)`);
    for (const [k, v] of Object.entries(r)) expect(n(v), k).toBe(0);
  });

  it('str_area_months: every area-month equals the sums of its listings, at every level', async () => {
    const r = await one(ctx, `WITH lm AS (SELECT l.sector, l.outcode, l.la_code, l.country, m.* FROM str_listing_months m JOIN str_listings l USING (id)),
      expect AS (
        SELECT 'sector' AS area_level, sector AS area_code, month, count(*) FILTER (WHERE live) AS listings, sum(booked_nights) AS b, sum(available_nights) AS a, sum(revenue) AS rev FROM lm GROUP BY ALL
        UNION ALL SELECT 'outcode', outcode, month, count(*) FILTER (WHERE live), sum(booked_nights), sum(available_nights), sum(revenue) FROM lm GROUP BY ALL
        UNION ALL SELECT 'la', la_code, month, count(*) FILTER (WHERE live), sum(booked_nights), sum(available_nights), sum(revenue) FROM lm GROUP BY ALL
        UNION ALL SELECT 'country', country, month, count(*) FILTER (WHERE live), sum(booked_nights), sum(available_nights), sum(revenue) FROM lm GROUP BY ALL)
      SELECT count(*) AS rows,
        count(*) FILTER (WHERE a.area_code IS NULL OR e.area_code IS NULL) AS unmatched,
        count(*) FILTER (WHERE a.active_listings <> e.listings OR abs(a.booked_nights - e.b) > 1e-6 OR abs(a.available_nights - e.a) > 1e-6 OR abs(a.revenue - e.rev) > 1e-4) AS unequal
      FROM str_area_months a FULL JOIN expect e USING (area_level, area_code, month)`);
    expect(n(r.rows)).toBeGreaterThan(0);
    expect(n(r.unmatched)).toBe(0);
    expect(n(r.unequal)).toBe(0);
    const ratios = await one(ctx, `SELECT
      count(*) FILTER (WHERE occupancy NOT BETWEEN 0 AND 1) AS occ,
      count(*) FILTER (WHERE available_nights > 0 AND abs(revpar - adr * occupancy) > 1e-6 AND booked_nights > 0) AS revpar,
      count(*) FILTER (WHERE active_listings > 0 AND abs(revenue_per_listing * active_listings - revenue) > 1e-6) AS per_listing,
      count(DISTINCT area_level) AS levels
      FROM str_area_months`);
    expect(n(ratios.occ)).toBe(0);
    expect(n(ratios.revpar)).toBe(0);
    expect(n(ratios.per_listing)).toBe(0);
    // Year-on-year change for every month of the window, the first year's from the computed year before it.
    const yoy = await one(ctx, `WITH lm AS (SELECT l.outcode, m.* FROM str_listing_months_all m JOIN str_listings l USING (id)),
        py AS (SELECT outcode, month, sum(revenue) / count(*) FILTER (WHERE live) AS rpl FROM lm GROUP BY ALL HAVING count(*) FILTER (WHERE live) > 0)
      SELECT count(*) FILTER (WHERE a.month < DATE '2024-10-01' AND a.yoy_revenue_change IS NOT NULL) AS early,
             count(*) FILTER (WHERE (py.rpl > 0) <> (a.yoy_revenue_change IS NOT NULL)
                              OR abs(a.yoy_revenue_change - (a.revenue_per_listing / py.rpl - 1)) > 1e-9) AS bad
      FROM str_area_months a LEFT JOIN py ON py.outcode = a.area_code AND py.month = a.month - INTERVAL 12 MONTH
      WHERE a.area_level = 'outcode' AND a.revenue_per_listing IS NOT NULL`);
    expect(n(yoy.early)).toBeGreaterThan(0);
    expect(n(yoy.bad)).toBe(0);
    expect(n(ratios.levels)).toBe(4);
  });

  it('str_seasonality: twelve months per LA and build-wide, indices averaging 1 over the year', async () => {
    const rows = await q(ctx, `SELECT la_code, count(*) AS months,
      sum(demand_index * CASE WHEN month_of_year = 2 THEN 28.25 WHEN month_of_year IN (4, 6, 9, 11) THEN 30 ELSE 31 END) / 365.25 AS demand_mean,
      sum(adr_index * CASE WHEN month_of_year = 2 THEN 28.25 WHEN month_of_year IN (4, 6, 9, 11) THEN 30 ELSE 31 END) / 365.25 AS adr_mean,
      max(demand_index) / min(demand_index) AS spread
      FROM str_seasonality GROUP BY la_code`);
    expect(rows.map((r) => r.la_code)).toContain('*');
    const las = await one(ctx, 'SELECT count(DISTINCT la_code) AS n FROM str_listings WHERE la_code IS NOT NULL');
    expect(rows).toHaveLength(n(las.n) + 1);
    for (const r of rows) {
      expect(n(r.months)).toBe(12);
      expect(n(r.demand_mean)).toBeCloseTo(1, 6);
      expect(n(r.adr_mean)).toBeCloseTo(1, 6);
    }
    // The synthetic region's demand peaks in summer: the reviews must show it (Aug over Jan).
    const star = await one(ctx, `SELECT max(demand_index) FILTER (WHERE month_of_year = 8) / max(demand_index) FILTER (WHERE month_of_year = 1) AS aug_jan FROM str_seasonality WHERE la_code = '*'`);
    expect(n(star.aug_jan)).toBeGreaterThan(1.2);
  });

  it('records a summary for the manifest', () => {
    const s = ctx.quality.str as Record<string, unknown>;
    expect(n(s.listings)).toBeGreaterThan(0);
    expect(n(s.listing_months)).toBe(n(s.listings) * STR_METHOD.historyMonths);
    expect(s.review_source).toBe('reviews_file');
  });

  it('counts the listings of each area as str_listings does, and live listings as str_area_months does', async () => {
    const r = await one(ctx, `WITH e AS (
        SELECT 'outcode' AS area_level, outcode AS area_code, count(*) AS listings, count(*) FILTER (WHERE active) AS active,
               count(*) FILTER (WHERE blocked) AS blocked, coalesce(sum(available_next_30d) FILTER (WHERE active), 0) AS open30
        FROM str_listings GROUP BY outcode
        UNION ALL SELECT 'country', country, count(*), count(*) FILTER (WHERE active), count(*) FILTER (WHERE blocked),
               coalesce(sum(available_next_30d) FILTER (WHERE active), 0) FROM str_listings GROUP BY country)
      SELECT count(*) AS n, count(*) FILTER (WHERE s.listings <> e.listings OR s.active_listings <> e.active OR s.blocked_listings <> e.blocked OR s.available_next_30d <> e.open30) AS bad
      FROM e JOIN str_area_snapshot s USING (area_level, area_code)`);
    expect(n(r.n)).toBeGreaterThan(3);
    expect(n(r.bad)).toBe(0);
    const m = await one(ctx, `SELECT count(*) AS n, count(*) FILTER (WHERE s.live_listings_now <> a.active_listings) AS bad,
        count(*) FILTER (WHERE s.supply_yoy_growth IS NOT NULL AND abs(s.supply_yoy_growth - (s.live_listings_now / s.live_listings_year_ago - 1)) > 1e-9) AS bad_growth,
        count(*) FILTER (WHERE s.booked_ahead_30d < 0 OR s.booked_ahead_30d > 30 * s.active_listings) AS bad_ahead
      FROM str_area_snapshot s JOIN str_area_months a ON a.area_level = s.area_level AND a.area_code = s.area_code AND a.month = DATE '2025-09-01'`);
    expect(n(m.n)).toBeGreaterThan(3);
    expect(n(m.bad)).toBe(0);
    expect(n(m.bad_growth)).toBe(0);
    expect(n(m.bad_ahead)).toBe(0);
  });
});
