import type { LookupFileSpec } from './lookup-tables-format.ts';

/**
 * The crime, listings and HMO licence sets as serving files (issue 46, ADR 0015 step 6): the
 * ETL writes each from its query (lookup-sql/) and the service reads it where it lies instead
 * of holding every crime, listing and licence in each process's heap. Points by grid cell
 * (`cell`, read by lib/files/cell-points.ts) for the radius searches; the listings and
 * licences by outcode as well, rows in full, so an outcode's are one run of pages (a file of
 * pointers into the points file would cost a random read per row); the few figures about the
 * whole set (months, as-of dates) in a file's meta (`summary`).
 */

/**
 * The cell of every points file, in metres (its queries write it as a literal; the writer
 * checks each key against JavaScript's). The endpoints search 800 m (crime) to 2 km (deals)
 * by default: 500 m reads 3-5 cells a row of cells for those (bench/location-sets.ts).
 */
export const CELL_M = 500;

const num = (name: string) => ({ name, kind: 'num' as const });
const text = (name: string) => ({ name, kind: 'text' as const });
const dict = (name: string) => ({ name, kind: 'dict' as const });
const cell = { m: CELL_M, lat: 'lat', lng: 'lng' } as const;

/** A listing's columns as service/store/sql/listings_all.sql gives them (outcode where the outcode file keys by it). */
const listingCols = (withOutcode: boolean) => [
  text('listing_id'), text('agent_ref'), dict('channel'), dict('status'), num('uprn'), text('address'), text('postcode'),
  ...(withOutcode ? [text('outcode')] : []), text('sector'), num('lat'), num('lng'), text('la_code'), num('price'), dict('price_qualifier'),
  num('bedrooms'), dict('property_type'), dict('tenure'), text('listed_date'), text('updated_at'),
];
/** A licence's columns as service/store/sql/hmo_licences_all.sql gives them, less the register's as-of (the summary's). */
const licenceCols = (withOutcode: boolean) => [
  text('licence_reference'), text('register'), text('address'), text('postcode'), ...(withOutcode ? [text('outcode')] : []), num('uprn'),
  num('max_occupants'), num('households'), num('storeys'), text('valid_from'), text('valid_to'), dict('status'), num('lat'), num('lng'),
  dict('position_source'),
];

export const LOCATION_SET_FILES = {
  crimePoints: {
    artifact: 'crime_points', file: 'crime-points.rows', query: 'crime_point_rows', summary: 'crime_points_summary',
    before: ['cell_key_macro'], after: [], key: num('cell'), unique: false, cell,
    columns: [num('lat'), num('lng'), dict('month'), dict('crime_type')],
  },
  crimeAreas: {
    artifact: 'crime_areas', file: 'crime-areas.rows', query: 'crime_area_rows', before: [], after: [], key: text('la_code'), unique: true,
    columns: [num('crimes'), num('addresses'), num('months'), num('unplaced')],
  },
  crimeHomes: {
    artifact: 'crime_homes', file: 'crime-homes.rows', query: 'crime_home_rows', before: ['cell_key_macro'], after: [], key: num('cell'), unique: false, cell,
    columns: [num('lat'), num('lng'), num('address_count'), text('la_code')],
  },
  listingPoints: {
    artifact: 'listing_points', file: 'listings-points.rows', query: 'listing_point_rows', summary: 'listings_summary',
    before: ['cell_key_macro'], after: [], key: num('cell'), unique: false, cell, columns: listingCols(true),
  },
  listingOutcodes: {
    artifact: 'listing_outcodes', file: 'listings-outcodes.rows', query: 'listing_outcode_rows', before: [], after: [], key: text('outcode'), unique: false,
    columns: listingCols(false),
  },
  hmoPoints: {
    artifact: 'hmo_points', file: 'hmo-points.rows', query: 'hmo_point_rows', summary: 'hmo_summary',
    before: ['cell_key_macro'], after: [], key: num('cell'), unique: false, cell, columns: licenceCols(true),
  },
  hmoOutcodes: {
    artifact: 'hmo_outcodes', file: 'hmo-outcodes.rows', query: 'hmo_outcode_rows', before: [], after: [], key: text('outcode'), unique: false,
    columns: licenceCols(false),
  },
} as const satisfies Record<string, LookupFileSpec>;

export type LocationSetFileName = keyof typeof LOCATION_SET_FILES;
