import type { DuckDBConnection } from '@duckdb/node-api';
import { AMENITY_RULES, type AmenityRule } from '../../../../schemas/tables/str-amenities.ts';
import type { Stage } from '../../../pipeline/context.ts';
import { countRows, queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { appendRows, createTable } from '../../../pipeline/load-rows.ts';
import { PROPERTY_CLASS_PATTERNS } from './classify.ts';
import { strSqlParams } from './params.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/**
 * Short-term-let marts from the staged Inside Airbnb files (docs/str.md): listings with their
 * area, type, tier, amenities and estimated performance; 24 months per listing; monthly area
 * aggregates; the seasonality and tier bounds they rest on.
 */
export const strMartsStage: Stage = {
  name: 'marts_str',
  description: 'short-term lets: listings with nearest postcode, tiers and amenities; review-rate occupancy and ADR by month; area aggregates',
  reads: ['stg_airbnb_listings', 'stg_airbnb_calendar', 'stg_airbnb_reviews', 'addresses', 'stg_onspd', 'stg_codepoint'],
  writes: ['str_listings', 'str_listing_months', 'str_listing_prior_months', 'str_area_months', 'str_area_snapshot', 'str_seasonality', 'str_price_tiers'],
  reuse: { today: false },
  // DuckDB's work alone: it runs while the serving files' JavaScript leaves a core idle.
  beside: { after: 'properties', tables: /^str_/ },
  async run(ctx) {
    await buildStrMarts(ctx.conn, {}, (name) => ctx.progress(`marts_str ${name}`, 0));
    const [summary] = await queryRows(ctx.conn, sql.text('str_quality_summary'));
    // The price guard's exclusions by tier band (docs/str.md, "Price guard").
    const byBand = await queryRows(ctx.conn, sql.text('str_quality_price_guard'));
    const [sentinels] = await queryRows(ctx.conn, sql.text('str_quality_sentinels'));
    ctx.quality.str = {
      ...summary,
      price_sentinels: Number(sentinels?.price_sentinels ?? 0),
      price_outliers_by_band: Object.fromEntries(byBand.map((r) => [String(r.tier_band), { outliers: Number(r.outliers), priced: Number(r.priced) }])),
      listing_months: await countRows(ctx.conn, 'str_listing_months'),
      area_months: await countRows(ctx.conn, 'str_area_months'),
    };
  },
};

/**
 * Runs the STR statements on a connection holding the staged Airbnb tables and `addresses`.
 * `overrides` replaces method parameters (bench/etl-str.ts measures their effect).
 */
export async function buildStrMarts(
  conn: DuckDBConnection,
  overrides: Partial<Record<string, number>> = {},
  progress: (statement: string) => void = () => undefined,
): Promise<void> {
  const params = {
    ...strSqlParams(),
    ...overrides,
    re_neither: PROPERTY_CLASS_PATTERNS.neither,
    re_apartment: PROPERTY_CLASS_PATTERNS.apartment,
    re_house: PROPERTY_CLASS_PATTERNS.house,
  } as Record<string, number | string>;
  await loadAmenityRules(conn);
  for (const name of STR_SQL_ORDER) {
    await sql.run(conn, name, params);
    progress(name);
  }
}

/** The amenity rules as table `str_amenity_rules` (key, pattern), for the SQL to match against. */
export async function loadAmenityRules(conn: DuckDBConnection): Promise<void> {
  await createTable(conn, 'str_amenity_rules', [{ name: 'key', type: 'VARCHAR' }, { name: 'pattern', type: 'VARCHAR' }]);
  await appendRows<AmenityRule>(conn, 'str_amenity_rules', [
    { name: 'key', type: 'VARCHAR', get: (r) => r.key },
    { name: 'pattern', type: 'VARCHAR', get: (r) => r.pattern },
  ], AMENITY_RULES);
}

/** The statements, in dependency order. */
export const STR_SQL_ORDER = [
  'str_listing_src', 'str_calendar_stats', 'str_postcode_points', 'str_listing_area', 'str_listing_base', 'str_price_guard',
  'str_seasonality', 'str_price_tiers', 'str_listing_price', 'str_listing_months_all', 'str_listing_months', 'str_listing_prior_months', 'str_listings', 'str_area_months', 'str_area_snapshot',
] as const;
