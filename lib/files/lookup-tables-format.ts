import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyKind, KeyedRowsMeta, ValueKind } from './keyed-rows-file.ts';

/**
 * The lookup tables as serving files (issue 46, ADR 0015 steps 2 and 6): the ETL
 * writes each as a keyed-rows file (keyed-rows-file.ts) from its query here, and the service
 * reads it where it lies instead of making it in its heap. The queries (lookup-sql/) are the
 * ones the service still runs for a build published before these files: one text for both,
 * here because the ETL and the service share only lib/ and schemas/.
 */
export interface LookupFileSpec {
  /** The manifest's artifact name. */
  artifact: string;
  /** The file in the build folder. */
  file: string;
  /** The query its rows come from (lookup-sql/<query>.sql), columns in the order `key`, `columns`. */
  query: string;
  /** Statements run before the query (they make the tables it reads) and after it (they drop them). */
  before: readonly string[];
  after: readonly string[];
  /**
   * The source whose windows the `before` statements end at: they bind $1 to the last day of
   * its as-of month (the ETL's `windowEnd`, the service's `windowEndDate`), never the build date.
   */
  windowEnd?: 'price_paid';
  key: { name: string; kind: KeyKind };
  /** The other columns, each as the file stores it: an int, float or ISO date as the service decodes it (number, number, text). */
  columns: ReadonlyArray<{ name: string; kind: ValueKind }>;
  unique: boolean;
  /**
   * A file of points keyed by grid cell (lib/files/cell-points.ts): the key is the cell of
   * columns `lat`, `lng` at `m` metres as lib/geo/grid-cells.ts numbers it, computed in SQL by
   * the `cell_key` macro (lookup-sql/cell_key_macro.sql, in `before`); the writer checks each
   * row's against JavaScript's and keeps the spec in the file's meta.
   */
  cell?: { m: number; lat: string; lng: string };
  /**
   * A query (lookup-sql/<summary>.sql) of one row about the whole table (an as-of, the months
   * covered), kept in the file's meta as `extra.summary`: what a reader needs besides the rows.
   */
  summary?: string;
}

const num = (name: string) => ({ name, kind: 'num' as const });
const text = (name: string) => ({ name, kind: 'text' as const });
const bool = (name: string) => ({ name, kind: 'bool' as const });
/**
 * A text column of few distinct values (a rating, a type, an area code): a varint code per
 * row and the values once in the file's meta, decoded to the same text. At 1M addresses the
 * certificates' file held 230 MB with these as text, about 85 of a row's 200 bytes.
 */
const dict = (name: string) => ({ name, kind: 'dict' as const });

export const LOOKUP_FILES = {
  sales: {
    artifact: 'lookup_sales', file: 'lookup-sales.rows', query: 'lookup_sales_rows',
    before: ['lookup_sales_table'], after: [], key: num('uprn'), unique: false,
    columns: [text('transaction_id'), num('price'), text('date'), num('month_no'), dict('property_type'), bool('new_build'), dict('tenure'), dict('category'), dict('sector'), dict('outcode'), dict('la_code'), dict('country')],
  },
  // Made from lk_sales (the sales' table above), so written after it and before the drop.
  typeMonths: {
    artifact: 'lookup_type_months', file: 'lookup-type-months.rows', query: 'lookup_type_months_rows',
    before: ['lookup_type_months_table'], after: ['lookup_sales_tables_drop'], key: text('key'), unique: false,
    columns: [text('month'), num('median_price'), num('sales')],
  },
  epc: {
    artifact: 'lookup_epc', file: 'lookup-epc.rows', query: 'lookup_epc_rows', before: [], after: [], key: num('uprn'), unique: false,
    columns: [
      text('certificate_id'), text('lodgement_date'), text('inspection_date'), dict('current_energy_rating'), dict('potential_energy_rating'),
      num('current_energy_efficiency'), num('potential_energy_efficiency'), num('total_floor_area_m2'), num('number_habitable_rooms'),
      dict('property_type'), dict('built_form'), dict('construction_age_band'), dict('main_fuel'), dict('tenure'),
    ],
  },
  postcodes: {
    artifact: 'lookup_postcodes', file: 'lookup-postcodes.rows', query: 'lookup_postcode_rows', before: [], after: [], key: text('postcode'), unique: true,
    columns: [
      text('outcode'), text('sector'), num('lat'), num('lng'), text('country'), text('la_code'), text('ward'), bool('terminated'),
      text('date_terminated'), num('address_count'), num('median_price_5y'), num('sales_5y'), text('source'),
    ],
  },
  // The per-area tables (ADR 0015 step 6), keyed "level:code" (STR levels for str), each a
  // few rows a key; made from the marts, so written once they are (40-marts/75-area-lookup).
  areaCounts: {
    artifact: 'lookup_area_counts', file: 'lookup-area-counts.rows', query: 'lookup_area_counts',
    before: ['lookup_area_counts_table'], after: ['lookup_area_counts_drop'], windowEnd: 'price_paid', key: text('key'), unique: true,
    columns: [
      text('level'), text('code'), num('addresses'), num('located'), num('flood_zone_1'), num('flood_zone_2_only'), num('flood_zone_2'),
      num('flood_zone_3'), num('conservation_area'), num('article_4'), num('sales_12m'), num('lat'), num('lng'), text('country'), text('post_town'),
    ],
  },
  areaMix: {
    artifact: 'lookup_area_mix', file: 'lookup-area-mix.rows', query: 'lookup_area_mix',
    before: ['lookup_area_mix_table'], after: ['lookup_area_mix_drop'], key: text('key'), unique: false,
    columns: [text('dim'), text('value'), num('n')],
  },
  areaIndex: {
    artifact: 'lookup_area_index', file: 'lookup-area-index.rows', query: 'lookup_index_series',
    before: ['lookup_index_table'], after: ['lookup_index_drop'], key: text('key'), unique: false,
    columns: [
      text('area_level'), text('area_code'), text('month'), text('parent_code'), num('index'), num('sales_count'), num('median_price'),
      num('sales_12m'), num('repeat_pairs'), bool('enough_sales'),
    ],
  },
  // growth, sqft and rents are made by one statement and dropped by one: written in this order.
  areaGrowth: {
    artifact: 'lookup_area_growth', file: 'lookup-area-growth.rows', query: 'lookup_growth',
    before: ['lookup_area_stats_tables'], after: [], key: text('key'), unique: false,
    columns: [
      text('area_level'), text('area_code'), text('parent_code'), text('as_of_month'), num('index'), num('growth_1y'), num('growth_3y'),
      num('growth_5y'), num('growth_10y'), num('sales_12m'), num('median_price_12m'), num('repeat_pairs'), bool('enough_sales'),
    ],
  },
  areaSqft: {
    artifact: 'lookup_area_sqft', file: 'lookup-area-sqft.rows', query: 'lookup_area_prices', before: [], after: [], key: text('key'), unique: false,
    columns: [num('sales_count'), num('median_gbp_sqft'), num('p25_gbp_sqft'), num('p75_gbp_sqft')],
  },
  areaRents: {
    artifact: 'lookup_area_rents', file: 'lookup-area-rents.rows', query: 'lookup_area_rents', before: [], after: ['lookup_area_stats_drop'], key: text('key'), unique: false,
    columns: [
      num('bedrooms'), text('source'), num('median_pcm'), num('mean_pcm'), num('p25_pcm'), num('p75_pcm'), text('prior_level'), num('sample_size'),
      num('evidence_count'), num('gross_yield_pct'), num('yield_median_price'), num('yield_sales'),
    ],
  },
  areaStr: {
    artifact: 'lookup_area_str', file: 'lookup-area-str.rows', query: 'lookup_area_str',
    before: ['lookup_area_str_table'], after: ['lookup_area_str_drop'], key: text('key'), unique: false,
    columns: [text('scrape_date'), num('listings'), num('active_listings'), text('from_month'), text('to_month'), num('adr'), num('occupancy'), num('booked_nights')],
  },
  areaRooms: {
    artifact: 'lookup_area_rooms', file: 'lookup-area-rooms.rows', query: 'lookup_room_rents', before: [], after: [], key: text('key'), unique: false,
    columns: [text('source'), num('median_pcm'), num('mean_pcm'), num('p25_pcm'), num('p75_pcm'), num('sample_size'), num('evidence_count'), text('la_code')],
  },
} as const satisfies Record<string, LookupFileSpec>;

/** The per-area tables' files in the order the ETL writes them (a table made by one's `before` is read by the next). */
export const AREA_LOOKUP_FILES = ['areaCounts', 'areaMix', 'areaIndex', 'areaGrowth', 'areaSqft', 'areaRents', 'areaStr', 'areaRooms'] as const satisfies readonly (keyof typeof LOOKUP_FILES)[];

export type LookupFileName = keyof typeof LOOKUP_FILES;

/** Where the shared lookup queries live. */
export const LOOKUP_SQL_DIR = join(import.meta.dirname, 'lookup-sql');

/** The text of a shared lookup query or statement (`lookup-sql/<name>.sql`). */
export function lookupSql(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad SQL file name: ${name}`);
  return readFileSync(join(LOOKUP_SQL_DIR, `${name}.sql`), 'utf8');
}

/**
 * Why `meta` (an opened file's) is not `spec`'s table, or null when it is: a file of another
 * table, or of an older layout, must not answer for this one.
 */
export function lookupMetaMismatch(meta: KeyedRowsMeta, spec: LookupFileSpec): string | null {
  // A dict column decodes to the same text as a text one: a file written before a column became
  // a dict (or after, read by a spec that holds it as text) answers the same rows.
  const asText = (cols: ReadonlyArray<{ name: string; kind: string }>) => cols.map((c) => ({ name: c.name, kind: c.kind === 'dict' ? 'text' : c.kind }));
  const want = JSON.stringify({ key: spec.key, columns: asText(spec.columns), unique: spec.unique, cell: spec.cell ?? null });
  const got = JSON.stringify({ key: meta.key, columns: asText(meta.columns), unique: meta.unique, cell: meta.extra?.cell ?? null });
  return want === got ? null : `holds ${got}, not ${want}`;
}

/** A text key the keyed-rows file can hold in DuckDB's order: ASCII (DuckDB sorts UTF-8 bytes, JavaScript UTF-16 units). */
export function isAsciiKey(key: string): boolean {
  return /^[\x00-\x7f]*$/.test(key);
}
