import { AMENITY_RULES } from './str-amenities.ts';
import { col, type ColumnContract, type TableContract } from './contract.ts';

/**
 * Price tiers, cheapest first: quintiles of the listed nightly price within a tier group. The
 * ETL writes them (str_price_tiers, str_listings.price_tier) and the API answers with them.
 */
export const PRICE_TIERS = ['Budget', 'Economy', 'Midscale', 'Upscale', 'Luxury'] as const;
export type PriceTier = (typeof PRICE_TIERS)[number];

/** Contracts of the short-term-let marts (docs/str.md). */

const c = col;
const IA = 'Inside Airbnb listings';
const EST = 'estimate (docs/str.md)';

const AMENITY_COLUMNS: ColumnContract[] = AMENITY_RULES.map((r) =>
  c(`has_${r.key}`, 'BOOLEAN', '', `${IA} amenities, pattern /${r.pattern}/ on the lower-cased string`, r.description));

const AREA: ColumnContract[] = [
  c('postcode', 'VARCHAR', '', 'nearest postcode centroid within 1 km: address base, else ONSPD/Code-Point', 'null when none is within 1 km'),
  c('sector', 'VARCHAR', '', 'derived', 'postcode sector, e.g. "BS1 4"'),
  c('outcode', 'VARCHAR', '', 'derived', 'outward code, e.g. "BS1"'),
  c('la_code', 'VARCHAR', 'GSS code', 'the postcode\'s local authority (addresses, ONSPD or Code-Point)', 'local authority district'),
  c('country', 'VARCHAR', '', 'the postcode\'s country', 'England, Wales or Scotland'),
];

/** The STR tables a build publishes, with their sort keys and columns. */
export const STR_TABLES: TableContract[] = [
  {
    name: 'str_listings', sortKey: ['id'], description: 'one row per short-term-let listing of the latest scrape, with area, types, price tier, amenities, activity and estimated performance over the last 12 months',
    columns: [
      c('id', 'VARCHAR', '', IA, 'listing id as text (ids pass 2^53)'),
      c('scrape_date', 'DATE', 'ISO date', IA, 'latest last_scraped of the listing\'s file: the as-of date'),
      c('lat', 'DOUBLE', 'WGS84 degrees', IA, 'latitude (Airbnb offsets it by up to ~150 m)'),
      c('lng', 'DOUBLE', 'WGS84 degrees', IA, 'longitude'),
      ...AREA,
      c('postcode_distance_m', 'DOUBLE', 'm', 'derived', 'distance from the listing to the postcode\'s point'),
      c('postcode_source', 'VARCHAR', '', 'derived', 'addresses (address-base centroid) or postcode_directory'),
      c('neighbourhood', 'VARCHAR', '', IA, 'neighbourhood_cleansed (ward name)'),
      c('room_type', 'VARCHAR', '', IA, 'Entire home/apt, Private room, Shared room or Hotel room'),
      c('listing_type', 'VARCHAR', '', 'derived from room_type', 'entire_home, private_room, shared_room or hotel_room'),
      c('airbnb_property_type', 'VARCHAR', '', IA, 'property_type as published, e.g. "Private room in townhouse"'),
      c('property_type', 'VARCHAR', '', 'derived from airbnb_property_type (etl/stages/40-marts/70-str/classify.ts)', 'house or apartment; null for hotels, boats, campers and the like'),
      c('bedrooms', 'INTEGER', '', IA, 'bedrooms (0 for a studio)'), c('bathrooms', 'DOUBLE', '', IA, 'may be half baths, e.g. 1.5'), c('beds', 'INTEGER', '', IA, 'beds'),
      c('accommodates', 'INTEGER', 'guests', IA, 'most guests allowed'), c('minimum_nights', 'INTEGER', 'nights', IA, 'shortest stay accepted'),
      c('price_gbp', 'DOUBLE', 'GBP', IA, 'listed nightly price at the scrape (the "$" is GBP); null for listings carried over from a previous scrape'),
      c('price_outlier', 'BOOLEAN', '', 'str_price_guard (docs/str.md, "Price guard")', 'the listed price is a placeholder or outlier for its LA and tier band: the listing counts in no ADR, occupancy, revenue, tier or comparable'),
      c('guard_median_gbp', 'DOUBLE', 'GBP', 'str_price_guard', 'median listed price of the group the price guard judged the listing against'),
      c('adr_basis_gbp', 'DOUBLE', 'GBP', EST, 'the price ADR starts from: price_gbp, else a nearby median (price_basis)'),
      c('price_basis', 'VARCHAR', '', EST, 'listed, outcode_median, la_median, build_band_median or build_median'),
      c('tier_band', 'VARCHAR', '', 'derived', 'group prices are ranked in: entire_1 … entire_4plus (studios as 1) or room'),
      c('price_tier', 'VARCHAR', '', 'str_price_tiers', 'Budget, Economy, Midscale, Upscale or Luxury: price quintile in its tier group; null without a listed price'),
      c('tier_level', 'VARCHAR', '', 'str_price_tiers', 'group whose bounds set the tier: la_band, band or all'),
      c('rating_overall', 'DOUBLE', '0–5', IA, 'review_scores_rating'), c('rating_accuracy', 'DOUBLE', '0–5', IA, 'review_scores_accuracy'), c('rating_cleanliness', 'DOUBLE', '0–5', IA, 'review_scores_cleanliness'),
      c('rating_check_in', 'DOUBLE', '0–5', IA, 'review_scores_checkin'), c('rating_communication', 'DOUBLE', '0–5', IA, 'review_scores_communication'), c('rating_location', 'DOUBLE', '0–5', IA, 'review_scores_location'),
      c('rating_value', 'DOUBLE', '0–5', IA, 'review_scores_value'),
      c('number_of_reviews', 'INTEGER', '', IA, 'reviews over the listing\'s life'),
      c('reviews_ltm', 'INTEGER', '', IA, 'reviews in the last 12 months'), c('reviews_l30d', 'INTEGER', '', IA, 'reviews in the last 30 days'),
      c('reviews_per_month', 'DOUBLE', '', IA, 'lifetime reviews per month'),
      c('first_review', 'DATE', 'ISO date', 'listings and reviews files', 'earliest review date known'),
      c('last_review', 'DATE', 'ISO date', 'listings and reviews files', 'latest review date known'),
      c('amenity_keys', 'VARCHAR[]', '', `${IA} amenities`, 'every amenity key matched (etl/stages/40-marts/70-str/classify.ts), sorted'),
      ...AMENITY_COLUMNS,
      c('host_id', 'VARCHAR', '', IA, 'host id as text'),
      c('host_listings_count', 'INTEGER', '', IA, 'listings the host has on Airbnb (all areas)'),
      c('host_listings_in_scrape', 'INTEGER', '', IA, 'calculated_host_listings_count: the host\'s listings in this scrape'),
      c('host_is_superhost', 'BOOLEAN', '', IA, 'the host is a Superhost'), c('instant_bookable', 'BOOLEAN', '', IA, 'bookable without the host\'s approval'),
      c('listed', 'BOOLEAN', '', 'derived', 'has a price in this scrape (not carried over from a previous scrape)'),
      c('active', 'BOOLEAN', '', 'derived', 'listed, and reviewed in the last 365 days or bookable on some night of the coming year'),
      c('blocked', 'BOOLEAN', '', 'derived', 'listed, with no bookable night in the coming year'),
      c('available_next_30d', 'INTEGER', 'nights', 'Inside Airbnb calendar (else availability_30)', 'bookable nights in the 30 days from the scrape'),
      c('available_next_365d', 'INTEGER', 'nights', 'Inside Airbnb calendar (else availability_365)', 'bookable nights in the year from the scrape'),
      c('booked_ahead_30d', 'DOUBLE', 'nights', EST, 'closed nights in the next 30 days less the expected blocked ones'),
      c('demand_source', 'VARCHAR', '', 'derived', 'calendar (the calendar file) or listing_availability (the listings file\'s availability_30/90/365: no calendar); null when neither'),
      c('blocked_share', 'DOUBLE', 'fraction 0–1', EST, 'share of nights the host blocks: closed share of calendar days 90–364 ahead, capped at 0.5; the median where not observed'),
      c('blocked_share_observed', 'BOOLEAN', '', 'derived', 'false when blocked_share is the build median'),
      c('stay_nights', 'DOUBLE', 'nights', EST, 'assumed length of stay: minimum nights, at least 3, at most 30'),
      c('review_source', 'VARCHAR', '', 'derived', 'reviews_file (monthly review counts) or listing_counts (the file\'s review counts; the reviews file is stale)'),
      c('live_from', 'DATE', 'ISO date (month)', 'derived', 'first month counted as live: the first review\'s month (scrape month if never reviewed)'),
      c('live_to', 'DATE', 'ISO date (month)', 'derived', 'last month counted as live: the scrape month when listed, else the last review\'s month'),
      c('available_nights_ltm', 'DOUBLE', 'nights', EST, 'available (unblocked) nights, last 12 months'),
      c('booked_nights_ltm', 'DOUBLE', 'nights', EST, 'booked nights, last 12 months'),
      c('blocked_nights_ltm', 'DOUBLE', 'nights', EST, 'blocked nights, last 12 months'),
      c('occupancy_ltm', 'DOUBLE', 'fraction 0–1', EST, 'booked ÷ available nights, last 12 months; null when never available'),
      c('adr_ltm', 'DOUBLE', 'GBP', EST, 'average daily rate: revenue ÷ booked nights, last 12 months'),
      c('revenue_ltm', 'DOUBLE', 'GBP', EST, 'estimated revenue, last 12 months (annual revenue)'),
      c('airbnb_estimated_nights_l365d', 'INTEGER', 'nights', IA, 'Inside Airbnb\'s own estimate (estimated_occupancy_l365d), for comparison'),
      c('airbnb_estimated_revenue_l365d', 'DOUBLE', 'GBP', IA, 'Inside Airbnb\'s own estimate (estimated_revenue_l365d), for comparison'),
    ],
    rules: [{ rule: 'one row per listing', unique: ['id'] }],
  },
  {
    name: 'str_listing_months', sortKey: ['id', 'month'], description: '24 months per listing ending at the scrape month: available, blocked and booked nights, occupancy, ADR and revenue',
    columns: [
      c('id', 'VARCHAR', '', IA, 'listing id'),
      c('month', 'DATE', 'ISO date (first of month)', 'derived', 'calendar month'),
      c('live', 'BOOLEAN', '', 'derived', 'the month lies between live_from and live_to (str_listings)'),
      c('days_in_month', 'BIGINT', 'days', 'derived', 'days in the calendar month'),
      c('available_nights', 'DOUBLE', 'nights', EST, 'days × (1 − blocked share) when live, else 0'),
      c('blocked_nights', 'DOUBLE', 'nights', EST, 'days × blocked share when live, else 0'),
      c('booked_nights', 'DOUBLE', 'nights', EST, 'review-rate model, spread by the area demand index; 0 when not live'),
      c('occupancy', 'DOUBLE', 'fraction 0–1', EST, 'booked ÷ available nights; null when not live'),
      c('adr', 'DOUBLE', 'GBP', EST, 'listed price × area price index of the month ÷ that of the scrape month; null when not live'),
      c('revenue', 'DOUBLE', 'GBP', EST, 'booked nights × ADR; 0 when not live'),
      c('reviews', 'BIGINT', '', 'Inside Airbnb reviews', 'reviews dated in the month (0 when the reviews file does not cover it)'),
    ],
    rules: [
      { rule: 'one row per listing and month', unique: ['id', 'month'] },
      { rule: 'occupancy 0–1, booked within available', never: 'occupancy NOT BETWEEN 0 AND 1 OR booked_nights > available_nights' },
    ],
  },
  {
    name: 'str_listing_prior_months', sortKey: ['id', 'month'], description: 'the 12 months before each listing\'s published history: live flag and revenue, for the year-on-year change of any selection\'s first 12 published months',
    columns: [
      c('id', 'VARCHAR', '', IA, 'listing id'),
      c('month', 'DATE', 'ISO date (first of month)', 'derived', 'calendar month: one of the 12 before the listing\'s first published month'),
      c('live', 'BOOLEAN', '', 'derived', 'the month lies between live_from and live_to (str_listings)'),
      c('revenue', 'DOUBLE', 'GBP', EST, 'booked nights × ADR; 0 when not live (as str_listing_months)'),
    ],
  },
  {
    name: 'str_area_months', sortKey: ['area_level', 'area_code', 'month'], description: 'short-term-let market by postcode sector, outcode, local authority and country and month: sums over the live listings and their ratios',
    columns: [
      c('area_level', 'VARCHAR', '', 'derived', 'sector, outcode, la or country'),
      c('area_code', 'VARCHAR', '', 'derived', 'e.g. "BS1 4", "BS1", "E06000023", "England"'),
      c('month', 'DATE', 'ISO date (first of month)', 'derived', 'calendar month'),
      c('active_listings', 'BIGINT', '', EST, 'listings live in the month'),
      c('new_listings', 'BIGINT', '', EST, 'listings whose first live month is this one (first review, or the scrape month for a new unreviewed listing)'),
      c('available_nights', 'DOUBLE', 'nights', EST, 'sum over listings'), c('booked_nights', 'DOUBLE', 'nights', EST, 'sum over listings'),
      c('blocked_nights', 'DOUBLE', 'nights', EST, 'sum over listings'), c('revenue', 'DOUBLE', 'GBP', EST, 'sum over listings'),
      c('reviews', 'DOUBLE', '', 'Inside Airbnb reviews', 'sum over listings'),
      c('occupancy', 'DOUBLE', 'fraction 0–1', EST, 'booked ÷ available nights'),
      c('adr', 'DOUBLE', 'GBP', EST, 'revenue ÷ booked nights'),
      c('revpar', 'DOUBLE', 'GBP', EST, 'revenue ÷ available nights'),
      c('revenue_per_listing', 'DOUBLE', 'GBP', EST, 'revenue ÷ active listings (revenue per listing per month)'),
      c('yoy_revenue_change', 'DOUBLE', 'fraction', EST, 'revenue per listing ÷ that of the same month a year earlier − 1 (the year before the window is computed too); null when there was no revenue then'),
    ],
    rules: [{ rule: 'occupancy 0–1', never: 'occupancy NOT BETWEEN 0 AND 1' }],
  },
  {
    name: 'str_area_snapshot', sortKey: ['area_level', 'area_code'], description: 'short-term-let supply and the coming 30 days by postcode sector, outcode, local authority and country, at the scrape',
    columns: [
      c('area_level', 'VARCHAR', '', 'derived', 'sector, outcode, la or country'),
      c('area_code', 'VARCHAR', '', 'derived', 'e.g. "BS1 4", "BS1", "E06000023", "England"'),
      c('scrape_date', 'DATE', 'ISO date', IA, 'latest scrape date of the area\'s listings'),
      c('listings', 'BIGINT', '', IA, 'listings placed in the area'),
      c('listed_listings', 'BIGINT', '', 'derived', 'listings with a price in this scrape'),
      c('active_listings', 'BIGINT', '', 'derived', 'active listings (str_listings.active)'),
      c('blocked_listings', 'BIGINT', '', 'derived', 'listed listings with no open night in the coming year'),
      c('new_listings_30d', 'BIGINT', '', IA, 'listings first reviewed in the 30 days before the scrape (a lagging proxy: a new listing shows once reviewed)'),
      c('live_listings_now', 'BIGINT', '', EST, 'listings live in the scrape month (str_listing_months)'),
      c('live_listings_year_ago', 'BIGINT', '', EST, 'listings live 12 months before the scrape month'),
      c('supply_yoy_growth', 'DOUBLE', 'fraction', EST, 'live_listings_now ÷ live_listings_year_ago − 1; null when none a year ago'),
      c('booked_ahead_30d', 'DOUBLE', 'nights', EST, 'sum over active listings of closed nights in the next 30 days less expected blocked ones'),
      c('available_next_30d', 'DOUBLE', 'nights', 'Inside Airbnb calendar', 'sum over active listings of open nights in the next 30 days'),
      c('stay_nights_avg', 'DOUBLE', 'nights', EST, 'mean assumed length of stay of active listings (an assumption, not a measurement)'),
      c('listings_with_rating', 'BIGINT', '', IA, 'active listings with an overall rating'),
      c('rating_overall_avg', 'DOUBLE', '0–5', IA, 'mean overall rating of active listings'),
    ],
  },
  {
    name: 'str_seasonality', sortKey: ['la_code', 'month_of_year'], description: 'month-of-year demand and price indices per local authority, from the review history (la_code "*": build-wide)',
    columns: [
      c('la_code', 'VARCHAR', 'GSS code', 'derived', 'local authority, or "*" for the whole build'),
      c('month_of_year', 'BIGINT', '1–12', 'derived', 'January = 1'),
      c('reviews', 'BIGINT', '', 'Inside Airbnb reviews', 'reviews in this month of year within the window'),
      c('demand_index', 'DOUBLE', 'ratio', EST, 'reviews per night relative to the year (day-weighted mean 1), shrunk towards the build-wide index'),
      c('adr_index', 'DOUBLE', 'ratio', EST, 'demand_index ^ 0.7, rescaled to a day-weighted mean of 1 (assumed price response)'),
      c('window_from', 'DATE', 'ISO date', 'derived', 'first month of the review window'),
      c('window_to', 'DATE', 'ISO date', 'derived', 'month after the window (the latest, partial, review month)'),
      c('source', 'VARCHAR', '', 'derived', 'reviews (its own review history), build_wide (none of its own: the build-wide pattern) or national_prior (no reviews in the build: STR_METHOD.seasonalityNationalPrior)'),
    ],
  },
  {
    name: 'str_price_tiers', sortKey: ['level', 'la_code', 'tier_band', 'tier'], description: 'price-tier bounds: quintiles of listed nightly prices per local authority and tier band (with build-wide fallbacks)',
    columns: [
      c('level', 'VARCHAR', '', 'derived', 'la_band (LA and band, at least 25 priced listings), band (build-wide) or all'),
      c('la_code', 'VARCHAR', 'GSS code', 'derived', 'null unless level la_band'),
      c('tier_band', 'VARCHAR', '', 'derived', 'entire_1 … entire_4plus or room; null for level all'),
      c('listings', 'BIGINT', '', IA, 'priced listings in the group'),
      c('tier', 'VARCHAR', '', 'derived', 'Budget, Economy, Midscale, Upscale or Luxury'),
      c('tier_rank', 'INTEGER', '1–5', 'derived', '1 Budget … 5 Luxury'),
      c('min_price_gbp', 'DOUBLE', 'GBP', 'derived', 'lowest price in the tier (inclusive); null for Budget'),
      c('max_price_gbp', 'DOUBLE', 'GBP', 'derived', 'price where the next tier starts (exclusive); null for Luxury'),
    ],
  },
];
