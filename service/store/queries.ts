/**
 * Every named read of service/store/sql the service runs, declared: its parameters and its
 * result columns with a kind each (decode.ts), so `BuildStore.rows` / `BuildStore.columns`
 * give typed values (docs/adr/0014-typed-store-reads.md). `table` names the published table
 * (schemas/tables/) the columns come from: a column named as one of that table's columns has
 * a kind its contract type allows (test/unit/store-queries.test.ts), except those listed in
 * `derived` (cast or computed in the SQL). Nullability is declared here, per query: the
 * contracts do not say it, and a query's WHERE can rule NULLs out. Every declaration is
 * checked against what DuckDB returns over a real build (test/service/store-queries.test.ts).
 */
import type { ColumnsOf, ResultDecl, RowOf } from './decode.ts';

/** A parameter's kind: what the service binds (a UPRN as bigint; a date as 'YYYY-MM-DD'). */
export type ParamKind = 'bigint' | 'date' | 'string';
interface ParamValue { bigint: bigint; date: string; string: string }

export interface QueryDecl extends ResultDecl {
  params: readonly ParamKind[];
  /** The published table the columns come from, where there is one. */
  table?: string;
  /** Columns named as `table`'s but cast or computed in the SQL (not checked against its contract). */
  derived?: readonly string[];
}

const q = <const D extends QueryDecl>(d: D): D => d;

export const QUERIES = {
  area_rents_yields_all: q({
    params: [], table: 'rents_area', derived: ['gross_yield_pct'],
    columns: { area_level: 'string', area_code: 'string', bedrooms: 'int', median_pcm: 'float', source: 'string', sample_size: 'int?', gross_yield_pct: 'float?', yield_sales: 'int?' },
  }),
  crime_all: q({
    params: [], table: 'crime',
    columns: { month: 'string', crime_type: 'string', lat: 'float?', lng: 'float?', la_code: 'string?', release: 'string' },
  }),
  crime_la_all: q({ params: [], table: 'crime_la', columns: { la_code: 'string', crimes: 'int', addresses: 'int', months: 'int' } }),
  // Read by service/records/designations.ts on a connection of its own (streamed, its file bound as $path).
  designations_all: q({
    params: [], table: 'uprn_designations',
    columns: { uprn: 'int', dataset: 'string', entity: 'int?', reference: 'string?', name: 'string?', flood_risk_level: 'int?' },
  }),
  duckdb_memory: q({ params: [], columns: { tag: 'string', memory_usage_bytes: 'int', temporary_storage_bytes: 'int' } }),
  gdv_new_build_premium: q({ params: [], columns: { kind: 'string', premium: 'float?', outcodes: 'int' } }),
  gdv_sqft_sales_all: q({
    params: [], table: 'sqft_sales',
    columns: { lat: 'float', lng: 'float', kind: 'string?', new_build: 'bool?', gbp_sqft: 'float' },
  }),
  hmo_licences_all: q({
    params: [], table: 'hmo_licences',
    columns: {
      licence_reference: 'string', register: 'string', address: 'string', postcode: 'string?', outcode: 'string?', uprn: 'int?',
      max_occupants: 'int?', households: 'int?', storeys: 'int?', valid_from: 'date?', valid_to: 'date?', status: 'string?',
      lat: 'float?', lng: 'float?', position_source: 'string?', register_as_of: 'string?',
    },
  }),
  hmo_room_rents: q({
    params: [], table: 'rents_rooms',
    columns: { area_level: 'string', area_code: 'string', source: 'string', median_pcm: 'float', sample_size: 'int?' },
  }),
  hmo_sector_districts: q({ params: [], table: 'postcodes', columns: { sector: 'string', la_code: 'string' } }),
  hmo_space_per_room: q({ params: [], columns: { sample_size: 'int', p10_sqft: 'float?', median_sqft: 'float?' } }),
  hmo_yields: q({
    params: [], table: 'hmo_yields_area',
    columns: { area_level: 'string', area_code: 'string', gross_yield_pct: 'float?', p25_yield_pct: 'float?', p75_yield_pct: 'float?', sales_count: 'int?' },
  }),
  listings_all: q({
    params: [], table: 'listings', derived: ['updated_at'],
    columns: {
      listing_id: 'string', agent_ref: 'string', channel: 'string', status: 'string', uprn: 'int?', address: 'string',
      postcode: 'string', outcode: 'string', sector: 'string', lat: 'float', lng: 'float?', la_code: 'string?', price: 'float',
      price_qualifier: 'string?', bedrooms: 'int', property_type: 'string', tenure: 'string?', listed_date: 'date?', updated_at: 'string',
    },
  }),
  lookup_area_counts: q({
    params: [],
    columns: {
      key: 'string', level: 'string', code: 'string', addresses: 'int', located: 'int', flood_zone_1: 'int', flood_zone_2_only: 'int',
      flood_zone_2: 'int', flood_zone_3: 'int', conservation_area: 'int', article_4: 'int', sales_12m: 'int',
      lat: 'float?', lng: 'float?', country: 'string?', post_town: 'string?',
    },
  }),
  lookup_area_mix: q({ params: [], columns: { key: 'string', dim: 'string', value: 'string', n: 'int' } }),
  lookup_area_prices: q({
    params: [], table: 'price_per_sqft',
    columns: { key: 'string', sales_count: 'int', median_gbp_sqft: 'float?', p25_gbp_sqft: 'float?', p75_gbp_sqft: 'float?' },
  }),
  lookup_area_rents: q({
    params: [], table: 'rents_area', derived: ['gross_yield_pct'],
    columns: {
      key: 'string', bedrooms: 'int', source: 'string', median_pcm: 'float', mean_pcm: 'float', p25_pcm: 'float', p75_pcm: 'float',
      prior_level: 'string?', sample_size: 'int', evidence_count: 'int', gross_yield_pct: 'float?', yield_median_price: 'float?', yield_sales: 'int?',
    },
  }),
  lookup_area_str: q({
    params: [], table: 'str_area_snapshot', derived: ['listings', 'active_listings', 'adr', 'occupancy', 'booked_nights'],
    columns: {
      key: 'string', scrape_date: 'date', listings: 'int', active_listings: 'int', from_month: 'date?', to_month: 'date?',
      adr: 'float?', occupancy: 'float?', booked_nights: 'float?',
    },
  }),
  lookup_comparables_all: q({
    params: [], table: 'properties', derived: ['price'],
    columns: {
      uprn: 'int', price: 'int', day: 'int', month_no: 'int', lat: 'float', lng: 'float', property_type: 'string?', bedrooms: 'int?',
      floor_area_sqft: 'float?', sector: 'string?', outcode: 'string?', la_code: 'string?', country: 'string?',
    },
  }),
  lookup_epc_rows: q({
    params: [], table: 'epc_linked', derived: ['uprn'],
    columns: {
      uprn: 'float', certificate_id: 'string', lodgement_date: 'date?', inspection_date: 'date?', current_energy_rating: 'string?',
      potential_energy_rating: 'string?', current_energy_efficiency: 'int?', potential_energy_efficiency: 'int?', total_floor_area_m2: 'float?',
      number_habitable_rooms: 'int?', property_type: 'string?', built_form: 'string?', construction_age_band: 'string?', main_fuel: 'string?', tenure: 'string?',
    },
  }),
  lookup_growth: q({
    params: [], table: 'price_growth',
    columns: {
      key: 'string', area_level: 'string', area_code: 'string', parent_code: 'string?', as_of_month: 'string', index: 'float?',
      growth_1y: 'float?', growth_3y: 'float?', growth_5y: 'float?', growth_10y: 'float?', sales_12m: 'int', median_price_12m: 'float?',
      repeat_pairs: 'int', enough_sales: 'bool',
    },
  }),
  lookup_index_series: q({
    params: [], table: 'price_index_monthly',
    columns: {
      key: 'string', area_level: 'string', area_code: 'string', month: 'string', parent_code: 'string?', index: 'float?', sales_count: 'int',
      median_price: 'float?', sales_12m: 'int', repeat_pairs: 'int', enough_sales: 'bool',
    },
  }),
  lookup_la_names: q({ params: [], columns: { area_code: 'string', name: 'string' } }),
  lookup_outcode_districts: q({ params: [], table: 'postcodes', columns: { outcode: 'string', la_code: 'string' } }),
  lookup_planning_features: q({
    params: [], table: 'planning_features',
    columns: {
      dataset: 'string', entity: 'int?', reference: 'string?', name: 'string?', entry_date: 'string?', start_date: 'string?',
      flood_risk_level: 'int?', geometry: 'string',
    },
  }),
  lookup_postcode_rows: q({
    params: [], table: 'postcodes',
    columns: {
      postcode: 'string', outcode: 'string', sector: 'string', lat: 'float?', lng: 'float?', country: 'string?', la_code: 'string?', ward: 'string?',
      terminated: 'bool?', date_terminated: 'date?', address_count: 'int?', median_price_5y: 'float?', sales_5y: 'int?', source: 'string?',
    },
  }),
  lookup_room_rents: q({
    params: [], table: 'rents_rooms',
    columns: {
      key: 'string', source: 'string', median_pcm: 'float', mean_pcm: 'float', p25_pcm: 'float', p75_pcm: 'float', sample_size: 'int',
      evidence_count: 'int', la_code: 'string',
    },
  }),
  lookup_sales_month: q({ params: [], columns: { month: 'string?' } }),
  lookup_sales_rows: q({
    params: [], table: 'sales', derived: ['uprn'],
    columns: {
      uprn: 'float', transaction_id: 'string', price: 'int', date: 'date', month_no: 'int', property_type: 'string?', new_build: 'bool?',
      tenure: 'string?', category: 'string?', sector: 'string?', outcode: 'string?', la_code: 'string?', country: 'string?',
    },
  }),
  lookup_type_months_rows: q({ params: [], columns: { key: 'string', month: 'string', median_price: 'float', sales: 'int' } }),
  postcode_countries_all: q({ params: [], table: 'postcodes', columns: { postcode: 'string', lat: 'float?', lng: 'float?', country: 'string' } }),
  postcode_homes_all: q({
    params: [], table: 'postcodes',
    columns: { postcode: 'string', lat: 'float', lng: 'float', address_count: 'int', la_code: 'string?' },
  }),
  postcode_points_all: q({ params: [], table: 'postcodes', columns: { postcode: 'string', lat: 'float', lng: 'float' } }),
  property_by_uprn: q({
    params: ['bigint'], table: 'properties',
    columns: {
      uprn: 'bigint-as-string', address: 'string', postcode: 'string?', lat: 'float?', lng: 'float?', country: 'string?', property_type: 'string?',
      built_form: 'string?', floor_area_sqft: 'float?', habitable_rooms: 'int?', bedrooms: 'int?', tenure: 'string?', construction_age: 'string?',
      epc_current_rating: 'string?', epc_potential_rating: 'string?', plot_size: 'float?', last_sold_price: 'int?', last_sold_date: 'date?',
      flood_zone_2: 'bool?', flood_zone_3: 'bool?', conservation_area: 'bool?',
    },
  }),
  rents_lets_all: q({
    params: [], table: 'rent_lets', derived: ['uprn'],
    columns: {
      lat: 'float', lng: 'float', sector: 'string?', outcode: 'string?', property_type: 'string', bedrooms: 'int', rent_pcm: 'float',
      let_date: 'date', uprn: 'float?', floor_area_sqft: 'float?',
    },
  }),
  schools_all: q({
    params: [], table: 'schools',
    columns: {
      urn: 'int', name: 'string', phase: 'string', type: 'string', status: 'string', low_age: 'int?', high_age: 'int?', pupils: 'int?',
      capacity: 'int?', ofsted_rating: 'string?', ofsted_date: 'date?', postcode: 'string?', lat: 'float', lng: 'float',
    },
  }),
  str_estimate_listings: q({
    params: [], table: 'str_listings', derived: ['base_adr', 'occupancy', 'blocked_share'],
    columns: {
      id: 'string', lat: 'float', lng: 'float', bedrooms: 'int', bathrooms: 'float?', property_type: 'string?', la_code: 'string?', sector: 'string?',
      base_adr: 'float', occupancy: 'float', blocked_share: 'float', revenue_ltm: 'float?', adr_ltm: 'float?',
    },
  }),
  str_listing_rows: q({
    params: [], table: 'str_listings',
    columns: {
      id: 'string', lat: 'float', listing_type: 'string', property_type: 'string?', bedrooms: 'int?', bathrooms: 'float?', accommodates: 'int?',
      adr_ltm: 'float?', occupancy_ltm: 'float?', revenue_ltm: 'float?', rating_overall: 'float?', number_of_reviews: 'int?',
      host_listings_count: 'int?', scrape_date: 'date',
    },
  }),
  str_market_listings: q({
    params: [], table: 'str_listings', derived: ['booked_ahead_30d', 'available_next_30d', 'new_30d'],
    columns: {
      id: 'string', lat: 'float', lng: 'float', postcode: 'string?', sector: 'string?', outcode: 'string?', country: 'string?',
      listing_type: 'string', property_type: 'string?', bedrooms: 'int?', price_tier: 'string?',
      rating_overall: 'float?', rating_cleanliness: 'float?', rating_accuracy: 'float?', rating_communication: 'float?',
      rating_location: 'float?', rating_check_in: 'float?', rating_value: 'float?',
      active: 'bool', blocked: 'bool', new_30d: 'bool', booked_ahead_30d: 'float?', available_next_30d: 'float?', stay_nights: 'float?',
    },
    prefixed: { prefix: 'has_', kind: 'bool?' },
  }),
  str_market_months: q({ params: [], columns: { rn: 'int', mi: 'int', live: 'bool', available: 'float?', booked: 'float?', revenue: 'float?' } }),
  str_market_prior: q({ params: [], columns: { rn: 'int', mi: 'int', live: 'bool', revenue: 'float?' } }),
  str_seasonality_all: q({
    params: [], table: 'str_seasonality', extraColumns: 'ignore',
    columns: { la_code: 'string', month_of_year: 'int', demand_index: 'float?', adr_index: 'float?', source: 'string?' },
    // The build-wide/national-prior source came later: an older build's rows read as reviews.
    absentInOlderBuilds: ['source'],
  }),
  valuation_home_keys: q({ params: [], columns: { kind: 'string', id: 'int', a: 'string?', b: 'string?', c: 'string?', d: 'string?' } }),
  valuation_homes: q({
    params: [], table: 'properties', derived: ['uprn', 'last_sold_price'],
    columns: {
      uprn: 'float', lat: 'float?', lng: 'float?', type_code: 'int', floor_area_sqft: 'float?', last_sold_price: 'float?', last_sold_month: 'int?',
      path_id: 'int', postcode_id: 'int', age_id: 'int',
    },
  }),
  valuation_index: q({
    params: [], table: 'price_index_monthly',
    columns: { area_level: 'string', area_code: 'string', month_no: 'int', log_index: 'float', enough_sales: 'bool?' },
  }),
  valuation_sales: q({ params: [], table: 'sales', derived: ['uprn', 'price'], columns: { uprn: 'float', price: 'float', month: 'int' } }),
  // The evidence files' queries (lib/files/evidence-files.ts): run by the ETL, declared here so
  // their columns are checked against a real build with the others; the key made by cell_key.
  rent_lets_cell_rows: q({
    params: [], table: 'rent_lets', derived: ['bedrooms', 'uprn', 'floor_area_sqft'],
    columns: { cell: 'float', lat: 'float', lng: 'float', rent_pcm: 'float', bedrooms: 'int', flat: 'int', let_day: 'int', uprn: 'float', floor_area_sqft: 'float' },
  }),
  rent_lets_area_rows: q({
    params: [], table: 'rent_lets', derived: ['bedrooms'],
    columns: { area: 'string', rent_pcm: 'float', bedrooms: 'int', flat: 'int', let_day: 'int' },
  }),
  sqft_sales_cell_rows: q({
    params: [], table: 'sqft_sales', derived: ['new_build'],
    columns: { cell: 'float', lat: 'float', lng: 'float', gbp_sqft: 'float', flat: 'int', new_build: 'int' },
  }),
  postcode_point_cell_rows: q({
    params: [], table: 'postcodes',
    columns: { cell: 'float', lat: 'float', lng: 'float', postcode: 'string', country: 'string' },
  }),
  // The location sets' and designations' files' queries (lib/files/location-sets-files.ts,
  // lib/files/designations-file.ts): run by the ETL, declared here so their columns are checked
  // against a real build with the others; a point file's key made by cell_key.
  designation_rows: q({
    params: [], table: 'uprn_designations', derived: ['uprn', 'entity', 'flood_risk_level'],
    columns: { uprn: 'float', dataset: 'string', entity: 'float?', reference: 'string?', name: 'string?', flood_risk_level: 'float?' },
  }),
  crime_point_rows: q({ params: [], table: 'crime', columns: { cell: 'float', lat: 'float', lng: 'float', month: 'string', crime_type: 'string' } }),
  crime_home_rows: q({ params: [], table: 'postcodes', columns: { cell: 'float', lat: 'float', lng: 'float', address_count: 'int', la_code: 'string?' } }),
  crime_area_rows: q({ params: [], table: 'crime_la', derived: ['unplaced'], columns: { la_code: 'string', crimes: 'int', addresses: 'int', months: 'int', unplaced: 'int' } }),
  crime_points_summary: q({ params: [], table: 'crime', derived: ['months', 'latest_release'], columns: { months: 'string', latest_release: 'string?' } }),
  listing_point_rows: q({
    params: [], table: 'listings', derived: ['listed_date', 'updated_at'],
    columns: {
      cell: 'float', listing_id: 'string', agent_ref: 'string', channel: 'string', status: 'string', uprn: 'int?', address: 'string', postcode: 'string',
      outcode: 'string', sector: 'string', lat: 'float', lng: 'float', la_code: 'string?', price: 'float', price_qualifier: 'string?', bedrooms: 'int',
      property_type: 'string', tenure: 'string?', listed_date: 'string?', updated_at: 'string',
    },
  }),
  listing_outcode_rows: q({
    params: [], table: 'listings', derived: ['listed_date', 'updated_at'],
    columns: {
      outcode: 'string', listing_id: 'string', agent_ref: 'string', channel: 'string', status: 'string', uprn: 'int?', address: 'string', postcode: 'string',
      sector: 'string', lat: 'float?', lng: 'float?', la_code: 'string?', price: 'float', price_qualifier: 'string?', bedrooms: 'int',
      property_type: 'string', tenure: 'string?', listed_date: 'string?', updated_at: 'string',
    },
  }),
  listings_summary: q({ params: [], table: 'listings', derived: ['as_of'], columns: { as_of: 'string?' } }),
  hmo_point_rows: q({
    params: [], table: 'hmo_licences', derived: ['valid_from', 'valid_to'],
    columns: {
      cell: 'float', licence_reference: 'string', register: 'string', address: 'string', postcode: 'string?', outcode: 'string?', uprn: 'int?',
      max_occupants: 'int?', households: 'int?', storeys: 'int?', valid_from: 'string?', valid_to: 'string?', status: 'string?', lat: 'float', lng: 'float',
      position_source: 'string?',
    },
  }),
  hmo_outcode_rows: q({
    params: [], table: 'hmo_licences', derived: ['valid_from', 'valid_to'],
    columns: {
      outcode: 'string', licence_reference: 'string', register: 'string', address: 'string', postcode: 'string?', uprn: 'int?',
      max_occupants: 'int?', households: 'int?', storeys: 'int?', valid_from: 'string?', valid_to: 'string?', status: 'string?', lat: 'float?', lng: 'float?',
      position_source: 'string?',
    },
  }),
  hmo_summary: q({ params: [], table: 'hmo_licences', derived: ['registers'], columns: { registers: 'string' } }),
} as const satisfies Record<string, QueryDecl>;

/** Statements that make a build's derived in-memory tables (BuildStore.exec), with their parameters. */
export const STATEMENTS = {
  lookup_sales_table: [],
  lookup_type_months_table: [],
  lookup_sales_tables_drop: [],
  lookup_area_counts_table: ['date'],
  lookup_area_counts_drop: [],
  lookup_area_mix_table: [],
  lookup_area_mix_drop: [],
  lookup_index_table: [],
  lookup_index_drop: [],
  lookup_area_stats_tables: [],
  lookup_area_stats_drop: [],
  lookup_area_str_table: [],
  lookup_area_str_drop: [],
  cell_key_macro: [],
  // The STR market files' queries (lib/files/str-market-file.ts), run by the ETL alone: their
  // list columns (a listing's months) have no declared kind here, so they are run as statements
  // by the store-queries test (after the cell_key macro), and writeLookupFile checks their
  // columns' names and kinds against the file's spec.
  str_market_file_rows: [],
  str_market_cell_rows: [],
  str_market_area_rows: [],
  str_market_meta: [],
} as const satisfies Record<string, readonly ParamKind[]>;

export type QueryName = keyof typeof QUERIES;
export type StatementName = keyof typeof STATEMENTS;
type ParamValues<P extends readonly ParamKind[]> = { [I in keyof P]: ParamValue[P[I]] };
/** The values `name` binds, in order. */
export type ParamsOf<N extends QueryName> = ParamValues<(typeof QUERIES)[N]['params']>;
export type StatementParams<N extends StatementName> = ParamValues<(typeof STATEMENTS)[N]>;
/** One typed row of query `N`. */
export type Row<N extends QueryName> = RowOf<(typeof QUERIES)[N]>;
/** The typed columns of query `N`. */
export type Columns<N extends QueryName> = ColumnsOf<(typeof QUERIES)[N]>;
