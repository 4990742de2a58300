import type { KeyedRowsMeta } from './keyed-rows-file.ts';

/**
 * The sale valuer's per-home inputs (issue 46, ADR 0015 step 4): every home's valuation inputs
 * by UPRN in a keyed-rows file, read where they lie, instead of typed arrays of every home in
 * each process. Ids as the service's valuation_homes query numbers them.
 */
export const VALUATION_HOMES_FILE = 'valuation-homes.rows';

export const VALUATION_HOMES_COLUMNS = [
  { name: 'lat', kind: 'num' },
  { name: 'lng', kind: 'num' },
  /** 0 Detached, 1 Semi-Detached, 2 Terraced, 3 Flat, 255 unknown. */
  { name: 'type_code', kind: 'num' },
  { name: 'floor_area_sqft', kind: 'num' },
  { name: 'last_sold_price', kind: 'num' },
  /** year × 12 + month − 1. */
  { name: 'last_sold_month', kind: 'num' },
  /** Into the meta's `paths`. */
  { name: 'path_id', kind: 'num' },
  /** The id the service's evidence numbers this postcode by. */
  { name: 'postcode_id', kind: 'num' },
  /** Into the meta's `ages`. */
  { name: 'age_id', kind: 'num' },
  { name: 'postcode', kind: 'text' },
] as const satisfies KeyedRowsMeta['columns'];

export interface ValuationHomeRow {
  uprn: number;
  lat: number | null;
  lng: number | null;
  type_code: number;
  floor_area_sqft: number | null;
  last_sold_price: number | null;
  last_sold_month: number | null;
  path_id: number;
  postcode_id: number;
  age_id: number;
  postcode: string | null;
}

/** What the file keeps beside its rows (`meta.extra`). */
export interface ValuationHomesExtra {
  kind: 'valuation-homes';
  /** Each path id's [sector, outcode, district (la_code), country]. */
  paths: Array<[string | null, string | null, string | null, string | null]>;
  /** Each age id's construction age text (null: none). */
  ages: Array<string | null>;
}
