import type { LookupFileSpec } from './lookup-tables-format.ts';

/**
 * The rent lets, sqft sales and postcode points as serving files (issue 46, ADR 0015 step 6):
 * point sets keyed by grid cell (lib/files/cell-points.ts) and the lets by area, written by the
 * ETL (etl/stages/40-marts/65-evidence-files) from the queries in lookup-sql/ and read where they
 * lie by the service (service/valuers/evidence-files.ts, service/location/point-country.ts)
 * instead of every process holding them in R-trees. A build without them is served from the heap.
 *
 * Cell sizes (bench/evidence-cells.ts, bench/results/evidence-cells-*.json): the lets and
 * sales are searched within 220-1,300 m (the rental radii; GDV 500 m and out; area rents up to
 * 5 km), the postcode points for the nearest within 2 km, usually tens of metres away.
 */

const num = (name: string) => ({ name, kind: 'num' as const });
const small = (name: string) => ({ name, kind: 'small' as const });
const text = (name: string) => ({ name, kind: 'text' as const });
const dict = (name: string) => ({ name, kind: 'dict' as const });

export const RENT_LETS_CELL_M = 500;
export const SQFT_SALES_CELL_M = 500;
export const POSTCODE_POINTS_CELL_M = 250;

export const EVIDENCE_FILES = {
  /**
   * Every whole-property let by cell (GET /rents/long-term by radius, the rental valuation); its
   * meta keeps the build-wide `as_of` and `growth_per_month` (lib/valuation/rent-growth.ts).
   * Every column a number and none null (a radius search reads them at fixed offsets, no row
   * object): `flat` 1 for a flat, `let_day` days since 1970-01-01, `uprn` 0 where the evidence
   * named no home and `floor_area_sqft` NaN where unknown, as the heap holds them.
   */
  rentLets: {
    artifact: 'rent_lets_cells', file: 'rent-lets.rows', query: 'rent_lets_cell_rows',
    before: ['cell_key_macro'], after: [], key: num('cell'), unique: false,
    columns: [num('lat'), num('lng'), num('rent_pcm'), small('bedrooms'), small('flat'), small('let_day'), num('uprn'), num('floor_area_sqft')],
    cell: { m: RENT_LETS_CELL_M, lat: 'lat', lng: 'lng' },
  },
  /**
   * The same lets by area (GET /rents/long-term by sector or outcode): each let twice, under
   * `S:<sector>` and `O:<outcode>` (a prefix each, so an outcode never reads a sector's run).
   */
  rentLetAreas: {
    artifact: 'rent_lets_areas', file: 'rent-lets-areas.rows', query: 'rent_lets_area_rows',
    before: [], after: [], key: text('area'), unique: false,
    columns: [num('rent_pcm'), small('bedrooms'), small('flat'), small('let_day')],
  },
  /** Every sale with a floor area by cell (POST /valuations/development-gdv); `flat`, `new_build` 1 or 0; none null (read at fixed offsets). */
  sqftSales: {
    artifact: 'sqft_sales_cells', file: 'sqft-sales.rows', query: 'sqft_sales_cell_rows',
    before: ['cell_key_macro'], after: [], key: num('cell'), unique: false,
    columns: [num('lat'), num('lng'), num('gbp_sqft'), small('flat'), small('new_build')],
    cell: { m: SQFT_SALES_CELL_M, lat: 'lat', lng: 'lng' },
  },
  /** Every placed postcode with a country by cell: a bare point's country is its nearest's (service/location/point-country.ts). */
  postcodePoints: {
    artifact: 'postcode_points_cells', file: 'postcode-points.rows', query: 'postcode_point_cell_rows',
    before: ['cell_key_macro'], after: [], key: num('cell'), unique: false,
    columns: [num('lat'), num('lng'), text('postcode'), dict('country')],
    cell: { m: POSTCODE_POINTS_CELL_M, lat: 'lat', lng: 'lng' },
  },
} as const satisfies Record<string, LookupFileSpec>;

/** The area key of a sector's or an outcode's lets in rent-lets-areas.rows. */
export const letAreaKey = (level: 'sector' | 'outcode', code: string): string => `${level === 'sector' ? 'S' : 'O'}:${code}`;

/** The meta the rent lets file keeps beside its rows. */
export interface RentLetsMeta {
  as_of: string;
  growth_per_month: number;
}
