import type { DuckDBConnection } from '@duckdb/node-api';
import { col, type ColumnDoc, type PublishedTable, type Stage } from '../../../pipeline/context.ts';
import { countRows, queryRows, runSql } from '../../../pipeline/sql.ts';
import { appendRows, createTable } from '../../../pipeline/load-rows.ts';
import { AMENITY_RULES, PROPERTY_CLASS_PATTERNS, type AmenityRule } from './classify.ts';
import { strSqlParams } from './params.ts';

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
  async run(ctx) {
    await buildStrMarts(ctx.conn, {}, (name) => ctx.progress(`marts_str ${name}`, 0));
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
    await runSql(conn, name, params);
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
  'str_listing_src', 'str_calendar_stats', 'str_postcode_points', 'str_listing_area', 'str_listing_base',
  'str_seasonality', 'str_price_tiers', 'str_listing_price', 'str_listing_months_all', 'str_listing_months', 'str_listing_prior_months', 'str_listings', 'str_area_months', 'str_area_snapshot',
] as const;

const c = col;
const IA = 'Inside Airbnb listings';
const EST = 'estimate (docs/str.md)';

const AMENITY_COLUMNS: ColumnDoc[] = AMENITY_RULES.map((r) =>
  c(`has_${r.key}`, '', `${IA} amenities, pattern /${r.pattern}/ on the lower-cased string`, r.description));

const AREA: ColumnDoc[] = [
  c('postcode', '', 'nearest postcode centroid within 1 km: address base, else ONSPD/Code-Point', 'null when none is within 1 km'),
  c('sector', '', 'derived', 'postcode sector, e.g. "BS1 4"'),
  c('outcode', '', 'derived', 'outward code, e.g. "BS1"'),
  c('la_code', 'GSS code', 'the postcode\'s local authority (addresses, ONSPD or Code-Point)', 'local authority district'),
  c('country', '', 'the postcode\'s country', 'England, Wales or Scotland'),
];

/** The STR tables a build publishes, with their sort keys and columns. */
export const STR_TABLES: PublishedTable[] = [
  {
    name: 'str_listings', sortKey: ['id'], description: 'one row per short-term-let listing of the latest scrape, with area, types, price tier, amenities, activity and estimated performance over the last 12 months',
    columns: [
      c('id', '', IA, 'listing id as text (ids pass 2^53)'),
      c('scrape_date', 'ISO date', IA, 'latest last_scraped of the listing\'s file: the as-of date'),
      c('lat', 'WGS84 degrees', IA, 'latitude (Airbnb offsets it by up to ~150 m)'),
      c('lng', 'WGS84 degrees', IA, 'longitude'),
      ...AREA,
      c('postcode_distance_m', 'm', 'derived', 'distance from the listing to the postcode\'s point'),
      c('postcode_source', '', 'derived', 'addresses (address-base centroid) or postcode_directory'),
      c('neighbourhood', '', IA, 'neighbourhood_cleansed (ward name)'),
      c('room_type', '', IA, 'Entire home/apt, Private room, Shared room or Hotel room'),
      c('listing_type', '', 'derived from room_type', 'entire_home, private_room, shared_room or hotel_room'),
      c('airbnb_property_type', '', IA, 'property_type as published, e.g. "Private room in townhouse"'),
      c('property_type', '', 'derived from airbnb_property_type (etl/stages/40-marts/70-str/classify.ts)', 'house or apartment; null for hotels, boats, campers and the like'),
      c('bedrooms', '', IA, 'bedrooms (0 for a studio)'), c('bathrooms', '', IA, 'may be half baths, e.g. 1.5'), c('beds', '', IA, 'beds'),
      c('accommodates', 'guests', IA, 'most guests allowed'), c('minimum_nights', 'nights', IA, 'shortest stay accepted'),
      c('price_gbp', 'GBP', IA, 'listed nightly price at the scrape (the "$" is GBP); null for listings carried over from a previous scrape'),
      c('adr_basis_gbp', 'GBP', EST, 'the price ADR starts from: price_gbp, else a nearby median (price_basis)'),
      c('price_basis', '', EST, 'listed, outcode_median, la_median, build_band_median or build_median'),
      c('tier_band', '', 'derived', 'group prices are ranked in: entire_1 … entire_4plus (studios as 1) or room'),
      c('price_tier', '', 'str_price_tiers', 'Budget, Economy, Midscale, Upscale or Luxury: price quintile in its tier group; null without a listed price'),
      c('tier_level', '', 'str_price_tiers', 'group whose bounds set the tier: la_band, band or all'),
      c('rating_overall', '0–5', IA, 'review_scores_rating'), c('rating_accuracy', '0–5', IA, 'review_scores_accuracy'), c('rating_cleanliness', '0–5', IA, 'review_scores_cleanliness'),
      c('rating_check_in', '0–5', IA, 'review_scores_checkin'), c('rating_communication', '0–5', IA, 'review_scores_communication'), c('rating_location', '0–5', IA, 'review_scores_location'),
      c('rating_value', '0–5', IA, 'review_scores_value'),
      c('number_of_reviews', '', IA, 'reviews over the listing\'s life'),
      c('reviews_ltm', '', IA, 'reviews in the last 12 months'), c('reviews_l30d', '', IA, 'reviews in the last 30 days'),
      c('reviews_per_month', '', IA, 'lifetime reviews per month'),
      c('first_review', 'ISO date', 'listings and reviews files', 'earliest review date known'),
      c('last_review', 'ISO date', 'listings and reviews files', 'latest review date known'),
      c('amenity_keys', '', `${IA} amenities`, 'every amenity key matched (etl/stages/40-marts/70-str/classify.ts), sorted'),
      ...AMENITY_COLUMNS,
      c('host_id', '', IA, 'host id as text'),
      c('host_listings_count', '', IA, 'listings the host has on Airbnb (all areas)'),
      c('host_listings_in_scrape', '', IA, 'calculated_host_listings_count: the host\'s listings in this scrape'),
      c('host_is_superhost', '', IA, 'the host is a Superhost'), c('instant_bookable', '', IA, 'bookable without the host\'s approval'),
      c('listed', '', 'derived', 'has a price in this scrape (not carried over from a previous scrape)'),
      c('active', '', 'derived', 'listed, and reviewed in the last 365 days or bookable on some night of the coming year'),
      c('blocked', '', 'derived', 'listed, with no bookable night in the coming year'),
      c('available_next_30d', 'nights', 'Inside Airbnb calendar (else availability_30)', 'bookable nights in the 30 days from the scrape'),
      c('available_next_365d', 'nights', 'Inside Airbnb calendar (else availability_365)', 'bookable nights in the year from the scrape'),
      c('booked_ahead_30d', 'nights', EST, 'closed nights in the next 30 days less the expected blocked ones'),
      c('blocked_share', 'fraction 0–1', EST, 'share of nights the host blocks: closed share of calendar days 90–364 ahead, capped at 0.5; the median where not observed'),
      c('blocked_share_observed', '', 'derived', 'false when blocked_share is the build median'),
      c('stay_nights', 'nights', EST, 'assumed length of stay: minimum nights, at least 3, at most 30'),
      c('review_source', '', 'derived', 'reviews_file (monthly review counts) or listing_counts (the file\'s review counts; the reviews file is stale)'),
      c('live_from', 'ISO date (month)', 'derived', 'first month counted as live: the first review\'s month (scrape month if never reviewed)'),
      c('live_to', 'ISO date (month)', 'derived', 'last month counted as live: the scrape month when listed, else the last review\'s month'),
      c('available_nights_ltm', 'nights', EST, 'available (unblocked) nights, last 12 months'),
      c('booked_nights_ltm', 'nights', EST, 'booked nights, last 12 months'),
      c('blocked_nights_ltm', 'nights', EST, 'blocked nights, last 12 months'),
      c('occupancy_ltm', 'fraction 0–1', EST, 'booked ÷ available nights, last 12 months; null when never available'),
      c('adr_ltm', 'GBP', EST, 'average daily rate: revenue ÷ booked nights, last 12 months'),
      c('revenue_ltm', 'GBP', EST, 'estimated revenue, last 12 months (annual revenue)'),
      c('airbnb_estimated_nights_l365d', 'nights', IA, 'Inside Airbnb\'s own estimate (estimated_occupancy_l365d), for comparison'),
      c('airbnb_estimated_revenue_l365d', 'GBP', IA, 'Inside Airbnb\'s own estimate (estimated_revenue_l365d), for comparison'),
    ],
  },
  {
    name: 'str_listing_months', sortKey: ['id', 'month'], description: '24 months per listing ending at the scrape month: available, blocked and booked nights, occupancy, ADR and revenue',
    columns: [
      c('id', '', IA, 'listing id'),
      c('month', 'ISO date (first of month)', 'derived', 'calendar month'),
      c('live', '', 'derived', 'the month lies between live_from and live_to (str_listings)'),
      c('days_in_month', 'days', 'derived', 'days in the calendar month'),
      c('available_nights', 'nights', EST, 'days × (1 − blocked share) when live, else 0'),
      c('blocked_nights', 'nights', EST, 'days × blocked share when live, else 0'),
      c('booked_nights', 'nights', EST, 'review-rate model, spread by the area demand index; 0 when not live'),
      c('occupancy', 'fraction 0–1', EST, 'booked ÷ available nights; null when not live'),
      c('adr', 'GBP', EST, 'listed price × area price index of the month ÷ that of the scrape month; null when not live'),
      c('revenue', 'GBP', EST, 'booked nights × ADR; 0 when not live'),
      c('reviews', '', 'Inside Airbnb reviews', 'reviews dated in the month (0 when the reviews file does not cover it)'),
    ],
  },
  {
    name: 'str_listing_prior_months', sortKey: ['id', 'month'], description: 'the 12 months before each listing\'s published history: live flag and revenue, for the year-on-year change of any selection\'s first 12 published months',
    columns: [
      c('id', '', IA, 'listing id'),
      c('month', 'ISO date (first of month)', 'derived', 'calendar month: one of the 12 before the listing\'s first published month'),
      c('live', '', 'derived', 'the month lies between live_from and live_to (str_listings)'),
      c('revenue', 'GBP', EST, 'booked nights × ADR; 0 when not live (as str_listing_months)'),
    ],
  },
  {
    name: 'str_area_months', sortKey: ['area_level', 'area_code', 'month'], description: 'short-term-let market by postcode sector, outcode, local authority and country and month: sums over the live listings and their ratios',
    columns: [
      c('area_level', '', 'derived', 'sector, outcode, la or country'),
      c('area_code', '', 'derived', 'e.g. "BS1 4", "BS1", "E06000023", "England"'),
      c('month', 'ISO date (first of month)', 'derived', 'calendar month'),
      c('active_listings', '', EST, 'listings live in the month'),
      c('new_listings', '', EST, 'listings whose first live month is this one (first review, or the scrape month for a new unreviewed listing)'),
      c('available_nights', 'nights', EST, 'sum over listings'), c('booked_nights', 'nights', EST, 'sum over listings'),
      c('blocked_nights', 'nights', EST, 'sum over listings'), c('revenue', 'GBP', EST, 'sum over listings'),
      c('reviews', '', 'Inside Airbnb reviews', 'sum over listings'),
      c('occupancy', 'fraction 0–1', EST, 'booked ÷ available nights'),
      c('adr', 'GBP', EST, 'revenue ÷ booked nights'),
      c('revpar', 'GBP', EST, 'revenue ÷ available nights'),
      c('revenue_per_listing', 'GBP', EST, 'revenue ÷ active listings (revenue per listing per month)'),
      c('yoy_revenue_change', 'fraction', EST, 'revenue per listing ÷ that of the same month a year earlier − 1 (the year before the window is computed too); null when there was no revenue then'),
    ],
  },
  {
    name: 'str_area_snapshot', sortKey: ['area_level', 'area_code'], description: 'short-term-let supply and the coming 30 days by postcode sector, outcode, local authority and country, at the scrape',
    columns: [
      c('area_level', '', 'derived', 'sector, outcode, la or country'),
      c('area_code', '', 'derived', 'e.g. "BS1 4", "BS1", "E06000023", "England"'),
      c('scrape_date', 'ISO date', IA, 'latest scrape date of the area\'s listings'),
      c('listings', '', IA, 'listings placed in the area'),
      c('listed_listings', '', 'derived', 'listings with a price in this scrape'),
      c('active_listings', '', 'derived', 'active listings (str_listings.active)'),
      c('blocked_listings', '', 'derived', 'listed listings with no open night in the coming year'),
      c('new_listings_30d', '', IA, 'listings first reviewed in the 30 days before the scrape (a lagging proxy: a new listing shows once reviewed)'),
      c('live_listings_now', '', EST, 'listings live in the scrape month (str_listing_months)'),
      c('live_listings_year_ago', '', EST, 'listings live 12 months before the scrape month'),
      c('supply_yoy_growth', 'fraction', EST, 'live_listings_now ÷ live_listings_year_ago − 1; null when none a year ago'),
      c('booked_ahead_30d', 'nights', EST, 'sum over active listings of closed nights in the next 30 days less expected blocked ones'),
      c('available_next_30d', 'nights', 'Inside Airbnb calendar', 'sum over active listings of open nights in the next 30 days'),
      c('stay_nights_avg', 'nights', EST, 'mean assumed length of stay of active listings (an assumption, not a measurement)'),
      c('listings_with_rating', '', IA, 'active listings with an overall rating'),
      c('rating_overall_avg', '0–5', IA, 'mean overall rating of active listings'),
    ],
  },
  {
    name: 'str_seasonality', sortKey: ['la_code', 'month_of_year'], description: 'month-of-year demand and price indices per local authority, from the review history (la_code "*": build-wide)',
    columns: [
      c('la_code', 'GSS code', 'derived', 'local authority, or "*" for the whole build'),
      c('month_of_year', '1–12', 'derived', 'January = 1'),
      c('reviews', '', 'Inside Airbnb reviews', 'reviews in this month of year within the window'),
      c('demand_index', 'ratio', EST, 'reviews per night relative to the year (day-weighted mean 1), shrunk towards the build-wide index'),
      c('adr_index', 'ratio', EST, 'demand_index ^ 0.7, rescaled to a day-weighted mean of 1 (assumed price response)'),
      c('window_from', 'ISO date', 'derived', 'first month of the review window'),
      c('window_to', 'ISO date', 'derived', 'month after the window (the latest, partial, review month)'),
    ],
  },
  {
    name: 'str_price_tiers', sortKey: ['level', 'la_code', 'tier_band', 'tier'], description: 'price-tier bounds: quintiles of listed nightly prices per local authority and tier band (with build-wide fallbacks)',
    columns: [
      c('level', '', 'derived', 'la_band (LA and band, at least 25 priced listings), band (build-wide) or all'),
      c('la_code', 'GSS code', 'derived', 'null unless level la_band'),
      c('tier_band', '', 'derived', 'entire_1 … entire_4plus or room; null for level all'),
      c('listings', '', IA, 'priced listings in the group'),
      c('tier', '', 'derived', 'Budget, Economy, Midscale, Upscale or Luxury'),
      c('tier_rank', '1–5', 'derived', '1 Budget … 5 Luxury'),
      c('min_price_gbp', 'GBP', 'derived', 'lowest price in the tier (inclusive); null for Budget'),
      c('max_price_gbp', 'GBP', 'derived', 'price where the next tier starts (exclusive); null for Luxury'),
    ],
  },
];
