import type { ColumnDoc, PublishedTable, Stage } from '../pipeline/context.ts';
import { countRows, queryRows, runSql } from '../pipeline/sql.ts';
import { appendRows, createTable } from '../stage/load-rows.ts';
import { AMENITY_RULES, PROPERTY_CLASS_PATTERNS, type AmenityRule } from '../str/classify.ts';
import { strSqlParams } from '../str/params.ts';

/**
 * Short-term-let marts from the staged Inside Airbnb files (docs/str.md): listings with their
 * area, type, tier, amenities and estimated performance; 24 months per listing; monthly area
 * aggregates; the seasonality and tier bounds they rest on.
 */
export const strMartsStage: Stage = {
  name: 'marts_str',
  description: 'short-term lets: listings with nearest postcode, tiers and amenities; review-rate occupancy and ADR by month; area aggregates',
  reads: ['stg_airbnb_listings', 'stg_airbnb_calendar', 'stg_airbnb_reviews', 'addresses', 'stg_onspd', 'stg_codepoint'],
  writes: ['str_listings', 'str_listing_months', 'str_area_months', 'str_seasonality', 'str_price_tiers'],
  async run(ctx) {
    const params = {
      ...strSqlParams(),
      re_neither: PROPERTY_CLASS_PATTERNS.neither,
      re_apartment: PROPERTY_CLASS_PATTERNS.apartment,
      re_house: PROPERTY_CLASS_PATTERNS.house,
    };
    await createTable(ctx.conn, 'str_amenity_rules', [{ name: 'key', type: 'VARCHAR' }, { name: 'pattern', type: 'VARCHAR' }]);
    await appendRows<AmenityRule>(ctx.conn, 'str_amenity_rules', [
      { name: 'key', type: 'VARCHAR', get: (r) => r.key },
      { name: 'pattern', type: 'VARCHAR', get: (r) => r.pattern },
    ], AMENITY_RULES);
    for (const name of STR_SQL_ORDER) {
      await runSql(ctx.conn, name, params);
      ctx.progress(`marts_str ${name}`, 0);
    }
    const [summary] = await queryRows(ctx.conn, `
      SELECT count(*) AS listings, count(*) FILTER (WHERE active) AS active, count(*) FILTER (WHERE postcode IS NULL) AS without_area,
             any_value(review_source) AS review_source
      FROM str_listings`);
    ctx.quality.str = {
      ...summary,
      listing_months: await countRows(ctx.conn, 'str_listing_months'),
      area_months: await countRows(ctx.conn, 'str_area_months'),
    };
  },
};

/** The statements, in dependency order. */
export const STR_SQL_ORDER = [
  'str_listing_src', 'str_calendar_stats', 'str_postcode_points', 'str_listing_area', 'str_listing_base',
  'str_seasonality', 'str_price_tiers', 'str_listing_price', 'str_listing_months', 'str_listings', 'str_area_months',
] as const;
