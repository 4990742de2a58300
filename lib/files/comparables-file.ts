import type { KeyedRowsMeta } from './keyed-rows-file.ts';

/**
 * The comparables file (issue 46, ADR 0015 step 4): every standard sale of a located home, as
 * the service's in-heap comparables index held them, in a keyed-rows file keyed by the home's
 * grid cell (lib/geo/grid-cells.ts), so a radius query reads the few pages of the cells around
 * its point. Within a cell each home's sales are together, oldest first.
 */
export const COMPARABLES_FILE = 'comparables.rows';

/**
 * Cell side in metres. Measured on the 1M synthetic build (bench/spatial-comparables.ts,
 * docs/scale.md): a 500 m radius spans 5 × 5 cells of 250 m, and the box read is about 1.6×
 * the circle's box rather than 4× with cells as wide as the radius.
 */
export const COMPARABLES_CELL_M = 250;

export const COMPARABLES_COLUMNS = [
  { name: 'uprn', kind: 'num' },
  { name: 'price', kind: 'num' },
  /** Days since 1970-01-01. */
  { name: 'day', kind: 'num' },
  /** year × 12 + month − 1. */
  { name: 'month_no', kind: 'num' },
  { name: 'lat', kind: 'num' },
  { name: 'lng', kind: 'num' },
  { name: 'property_type', kind: 'text' },
  { name: 'bedrooms', kind: 'num' },
  { name: 'floor_area_sqft', kind: 'num' },
  /** Index into the meta's `paths`. */
  { name: 'path', kind: 'num' },
] as const satisfies KeyedRowsMeta['columns'];

export interface ComparablesRow {
  cell: number;
  uprn: number;
  price: number;
  day: number;
  month_no: number;
  lat: number;
  lng: number;
  property_type: string | null;
  bedrooms: number | null;
  floor_area_sqft: number | null;
  path: number;
}

/** What the file keeps beside its rows (`meta.extra`). */
export interface ComparablesExtra {
  kind: 'comparables';
  cell_m: number;
  /** Each area path a row names: [sector, outcode, district (la_code), country]. */
  paths: Array<[string | null, string | null, string | null, string | null]>;
}
