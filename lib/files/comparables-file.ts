import { HOME_TYPES } from '../../schemas/property-types.ts';
import type { KeyedRowsMeta } from './keyed-rows-file.ts';

/**
 * The comparables file (issue 46, ADR 0015 step 4): every standard sale of a located home, as
 * the service's in-heap comparables index held them, in a keyed-rows file keyed by the home's
 * grid cell (lib/geo/grid-cells.ts), so a radius query reads the few pages of the cells around
 * its point. Within a cell each home's sales are together, newest first.
 *
 * Every column is a number and none is null (unknown bedrooms −1, an unknown floor area NaN), so
 * a row is 90 bytes with its values at fixed offsets: the reader takes the few it needs of each
 * row in a radius without making an object per row (`KeyedRowsFile.rangeRaw`, `COMPARABLES_AT`).
 */
export const COMPARABLES_FILE = 'comparables.rows';

/**
 * Cell side in metres. The rows read are those of the cells the query's box touches: for the
 * default 500 m radius about (1000 + cell)² against the circle's π·500², 1.6× at 125 m, 2.0× at
 * 250 m, 2.9× at 500 m; a 2 km radius reads 33 key ranges (rows of cells) at 125 m. Measured
 * (bench/comparables-valuer.ts --cells, docs/scale.md): 125 m the fastest of 125-1000 m.
 */
export const COMPARABLES_CELL_M = 125;

export const COMPARABLES_COLUMNS = [
  { name: 'uprn', kind: 'num' },
  { name: 'price', kind: 'num' },
  /** Days since 1970-01-01. */
  { name: 'day', kind: 'num' },
  /** year × 12 + month − 1. */
  { name: 'month_no', kind: 'num' },
  { name: 'lat', kind: 'num' },
  { name: 'lng', kind: 'num' },
  /** `COMP_TYPES` code (0 unknown). */
  { name: 'type', kind: 'num' },
  /** −1 unknown. */
  { name: 'bedrooms', kind: 'num' },
  /** NaN unknown. */
  { name: 'floor_area_sqft', kind: 'num' },
  /** Index into the meta's `paths`. */
  { name: 'path', kind: 'num' },
] as const satisfies KeyedRowsMeta['columns'];

/** Home types by code as the file stores them (index = code; 0 = unknown). */
export const COMP_TYPES = [null, ...HOME_TYPES] as const;

/** The byte of each column's value from a row's null bits (`rangeRaw`'s `at`): two bytes of them, then 8 a column. */
export const COMPARABLES_AT = Object.fromEntries(COMPARABLES_COLUMNS.map((c, i) => [c.name, 2 + 8 * i])) as Record<(typeof COMPARABLES_COLUMNS)[number]['name'], number>;

/** What the file keeps beside its rows (`meta.extra`). */
export interface ComparablesExtra {
  kind: 'comparables';
  cell_m: number;
  /** Each area path a row names: [sector, outcode, district (la_code), country]. */
  paths: Array<[string | null, string | null, string | null, string | null]>;
}
