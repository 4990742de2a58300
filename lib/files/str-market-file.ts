import type { LookupFileSpec } from './lookup-tables-format.ts';
import type { ValueKind } from './keyed-rows-file.ts';

/**
 * The short-term-let market set (GET /str/market, /str/listings) as three keyed-rows files
 * (issue 46, ADR 0015 step 6), read where they lie instead of every process loading
 * str_market_listings and its months into its heap (379 ms and 7.75 MB per million
 * addresses at 1M: 11 s and 230 MB at 30M).
 *
 * A listing's number (`rn`) is its row of the in-heap set: listings with a position, by id.
 * - rows: one row per listing by `rn`: its fields, then its 24 months right-aligned on its
 *   last month (`end_month`, −1 without one) as 96 float32 (`m0`…: live, available nights,
 *   booked nights, revenue per month), then the 12 months before them as 24 (`p0`…: live,
 *   revenue). The values the in-heap set holds, float32 as it holds them. Its meta keeps
 *   the build's amenity keys, the count of listings without a
 *   postcode and the listings' countries.
 * - cells: (rn, lat, lng) by 1 km grid cell, for radius and polygon searches (CellPoints).
 * - areas: rn by `S:<sector>` and `O:<outcode>` (ascending rn within each), for area lookups
 *   and the grade benchmark (one pass over the sectors, made by the service on first use).
 */
const col = (name: string, kind: ValueKind) => ({ name, kind });

export const STR_HISTORY_MONTHS = 24;
export const STR_RATING_FIELDS = ['overall', 'cleanliness', 'accuracy', 'communication', 'location', 'check_in', 'value'] as const;

export const STR_MARKET_ROW_COLUMNS = [
  col('lat', 'num'), col('lng', 'num'), col('postcode', 'text'), col('sector', 'text'), col('outcode', 'text'), col('country', 'dict'),
  col('listing_type', 'dict'), col('property_type', 'dict'), col('bedrooms', 'num'), col('price_tier', 'dict'),
  ...STR_RATING_FIELDS.map((f) => col(`rating_${f}`, 'num')),
  col('active', 'bool'), col('blocked', 'bool'), col('new_30d', 'bool'),
  col('booked_ahead_30d', 'num'), col('available_next_30d', 'num'), col('stay_nights', 'num'),
  /** The amenity keys the listing has, comma-separated, in the meta's order. */
  col('amenities', 'text'),
  col('end_month', 'num'),
  ...Array.from({ length: STR_HISTORY_MONTHS * 4 }, (_, q) => col(`m${q}`, 'small')),
  ...Array.from({ length: 24 }, (_, q) => col(`p${q}`, 'small')),
] as const;

/** The rows file: written by the stage's own loop (it lays the months out), so `query` is the query it streams. */
export const STR_MARKET_ROWS_FILE = {
  artifact: 'str_market_rows', file: 'str-market.rows', query: 'str_market_file_rows', before: [], after: [],
  key: { name: 'rn', kind: 'num' }, unique: true, columns: STR_MARKET_ROW_COLUMNS,
} as const satisfies LookupFileSpec;

/** Cells of 1 km: a postcode's 1 km circle reads about nine. */
export const STR_MARKET_CELL_M = 1000;

export const STR_MARKET_CELLS_FILE = {
  artifact: 'str_market_cells', file: 'str-market-cells.rows', query: 'str_market_cell_rows', before: ['cell_key_macro'], after: [],
  key: { name: 'cell', kind: 'num' }, unique: false, columns: [col('rn', 'num'), col('lat', 'num'), col('lng', 'num')],
  cell: { m: STR_MARKET_CELL_M, lat: 'lat', lng: 'lng' },
} as const satisfies LookupFileSpec;

export const STR_MARKET_AREAS_FILE = {
  artifact: 'str_market_areas', file: 'str-market-areas.rows', query: 'str_market_area_rows', before: [], after: [],
  key: { name: 'area', kind: 'text' }, unique: false, columns: [col('rn', 'num')],
} as const satisfies LookupFileSpec;

/** What the rows file's meta keeps beside its rows. */
export interface StrMarketRowsExtra {
  amenityKeys: string[];
  unplaced: number;
  /** The listings' countries, sorted (the source's coverage). */
  countries: string[];
}
