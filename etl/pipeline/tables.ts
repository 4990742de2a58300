import { MARKET_TABLES } from '../stages/40-marts/market-tables.ts';
import { VALUATION_TABLES } from '../stages/40-marts/60-valuation-evidence/stage.ts';
import { STR_TABLES } from '../stages/40-marts/70-str/stage.ts';
import { col, type ColumnDoc, type PublishedTable } from './context.ts';

const c = col;

const GEO: ColumnDoc[] = [
  c('postcode', '', 'AddressBase Core', 'postcode, canonical form "AA9 9AA"'),
  c('outcode', '', 'derived', 'outward code (postcode district), e.g. "BS1"'),
  c('sector', '', 'derived', 'postcode sector, e.g. "BS1 4"'),
  c('postcode_area', '', 'derived', 'postcode area letters, e.g. "BS"'),
  c('lat', 'WGS84 degrees', 'AddressBase Core, else OS Open UPRN', 'latitude'),
  c('lng', 'WGS84 degrees', 'AddressBase Core, else OS Open UPRN', 'longitude'),
  c('country', '', 'ONSPD by postcode, else the GSS code prefix', 'England, Wales or Scotland'),
  c('la_code', 'GSS code', 'ONSPD oslaua, else AddressBase GSS_CODE', 'local authority district'),
];

/**
 * Every table a build publishes, with the key its Parquet file is sorted by (so row-group
 * statistics prune lookups), a description and its columns for the data dictionary.
 */
export const PUBLISHED_TABLES: readonly PublishedTable[] = [
  {
    name: 'properties', sortKey: ['uprn'], description: 'the merged property record, one row per UPRN',
    columns: [
      c('uprn', '', 'AddressBase Core', 'Unique Property Reference Number'),
      c('address', '', 'AddressBase Core', 'single-line formatted address'),
      ...GEO,
      c('property_type', '', 'EPC built form, else latest sale type, else AddressBase classification', 'Detached, Semi-Detached, Terraced or Flat'),
      c('built_form', '', 'EPC (latest non-blank)', 'e.g. Mid-Terrace, End-Terrace, Detached'),
      c('floor_area_sqft', 'sq ft', 'EPC TOTAL_FLOOR_AREA × 10.7639', 'total floor area, rounded'),
      c('floor_area_m2', 'm²', 'EPC (latest non-blank, > 0)', 'total floor area'),
      c('habitable_rooms', '', 'EPC NUMBER_HABITABLE_ROOMS', 'habitable rooms'),
      c('bedrooms', '', 'derived from habitable rooms (docs/etl.md)', 'flats and houses up to 4 rooms: rooms − 1; houses of 5+: rooms − 2'),
      c('tenure', '', 'latest matched sale (Price Paid duration)', 'Freehold or Leasehold'),
      c('construction_age', '', 'EPC CONSTRUCTION_AGE_BAND', 'age band as published, e.g. "England and Wales: 1900-1929"'),
      c('epc_current_rating', 'A–G', 'EPC', 'current energy rating'),
      c('epc_potential_rating', 'A–G', 'EPC', 'potential energy rating'),
      c('epc_current_efficiency', 'SAP points', 'EPC', 'current energy efficiency score'),
      c('epc_lodgement_date', 'ISO date', 'EPC', 'lodgement date of the latest certificate'),
      c('plot_size', 'm²', 'none loaded (INSPIRE polygons are not among the sources)', 'always null for now'),
      c('last_sold_price', 'GBP', 'Price Paid, matched', 'price of the latest sale'),
      c('last_sold_date', 'ISO date', 'Price Paid, matched', 'date of the latest sale'),
      c('sale_count', '', 'Price Paid, matched', 'number of recorded sales'),
      c('flood_zone', '1–3', 'planning flood-risk-zone layer, point-in-polygon', 'highest flood zone containing the UPRN; 1 when none'),
      c('flood_zone_2', '', 'planning flood-risk-zone layer', 'inside flood zone 2 (or 3, which lies within the zone-2 extent)'),
      c('flood_zone_3', '', 'planning flood-risk-zone layer', 'inside flood zone 3'),
      c('conservation_area', '', 'planning conservation-area layer', 'inside a conservation area in force'),
      c('article_4', '', 'planning article-4-direction-area layer', 'inside an Article 4 direction area in force'),
      c('listed_building', '', 'planning listed-building(-outline) layer', 'inside a listed building outline'),
    ],
  },
  {
    name: 'addresses', sortKey: ['uprn'], description: 'the canonical address of every UPRN with its structured parts and postcode geography',
    columns: [
      c('uprn', '', 'AddressBase Core', 'Unique Property Reference Number'),
      c('parent_uprn', '', 'AddressBase Core', 'UPRN of the parent (e.g. the building of a flat)'),
      c('address', '', 'AddressBase Core', 'single-line formatted address'),
      c('organisation', '', 'AddressBase Core', ''), c('sub_building', '', 'AddressBase Core', 'e.g. "FLAT 2"'),
      c('building_name', '', 'AddressBase Core', ''), c('building_number', '', 'AddressBase Core', ''),
      c('street_name', '', 'AddressBase Core', ''), c('locality', '', 'AddressBase Core', ''),
      c('town_name', '', 'AddressBase Core', ''), c('post_town', '', 'AddressBase Core', ''),
      ...GEO.slice(0, 4),
      ...GEO.slice(4, 6),
      GEO[6]!, GEO[7]!,
      c('classification_code', '', 'AddressBase Core', 'OS classification, e.g. RD04 terraced'),
    ],
  },
  {
    name: 'sales', sortKey: ['uprn', 'date'], description: 'price-paid sales matched to a UPRN (the sales history)',
    columns: [
      c('uprn', '', 'address match', 'UPRN the sale was matched to'),
      c('transaction_id', '', 'Price Paid', 'transaction id (no braces)'),
      c('price', 'GBP', 'Price Paid', 'price paid'),
      c('date', 'ISO date', 'Price Paid', 'date of transfer'),
      c('property_type', 'D/S/T/F/O', 'Price Paid', 'type at the sale'),
      c('new_build', '', 'Price Paid', 'new build'),
      c('tenure', 'F/L/U', 'Price Paid', 'duration'),
      c('category', 'A/B', 'Price Paid', 'A standard price-paid, B additional (repossessions, buy-to-let…)'),
      c('recorded_postcode', '', 'Price Paid', 'postcode as recorded on the sale'),
      c('match_method', '', 'address match', 'postcode (in the recorded postcode) or street (same street and town)'),
      c('match_score', 'fraction 0–1', 'address match', 'word similarity of the match'),
    ],
  },
  {
    name: 'sales_unmatched', sortKey: ['postcode', 'date'], description: 'price-paid sales no UPRN could be given, with the reason',
    columns: [
      c('transaction_id', '', 'Price Paid', ''), c('price', 'GBP', 'Price Paid', ''), c('date', 'ISO date', 'Price Paid', ''),
      c('postcode', '', 'Price Paid', 'as recorded'), c('saon', '', 'Price Paid', ''), c('paon', '', 'Price Paid', ''),
      c('street', '', 'Price Paid', ''), c('town', '', 'Price Paid', ''), c('property_type', 'D/S/T/F/O', 'Price Paid', ''),
      c('new_build', '', 'Price Paid', ''), c('tenure', 'F/L/U', 'Price Paid', ''), c('category', 'A/B', 'Price Paid', ''),
      c('reason', '', 'address match', 'no_postcode_candidates, no_number_match, ambiguous or low_similarity'),
    ],
  },
  {
    name: 'epc_linked', sortKey: ['uprn', 'lodgement_date'], description: 'energy certificates with the UPRN each belongs to',
    columns: [
      c('certificate_id', '', 'EPC', 'LMK_KEY, ASSESSMENT_ID or CERTIFICATE_NUMBER'),
      c('address1', '', 'EPC', ''), c('address2', '', 'EPC', ''), c('address3', '', 'EPC', ''),
      c('postcode', '', 'EPC', ''), c('posttown', '', 'EPC', ''), c('property_type', '', 'EPC', 'House, Flat, Bungalow, Maisonette, Park home'),
      c('built_form', '', 'EPC', ''), c('total_floor_area_m2', 'm²', 'EPC', ''), c('number_habitable_rooms', '', 'EPC', ''),
      c('current_energy_efficiency', 'SAP points', 'EPC', ''), c('construction_age_band', '', 'EPC', ''),
      c('current_energy_rating', 'A–G', 'EPC', ''), c('potential_energy_rating', 'A–G', 'EPC', ''),
      c('tenure', '', 'EPC', 'occupancy as recorded (owner-occupied, rental…), not legal tenure'),
      c('region', '', 'EPC', ''), c('country', '', 'EPC', ''),
      c('lodgement_date', 'ISO date', 'EPC', ''), c('inspection_date', 'ISO date', 'EPC', ''),
      c('uprn', '', 'EPC UPRN if in the address base, else address match', ''),
      c('uprn_source', '', 'derived', 'certificate or address_match; null when unmatched'),
    ],
  },
  {
    name: 'uprn_designations', sortKey: ['uprn'], description: 'planning and flood designations containing each UPRN',
    columns: [
      c('uprn', '', 'addresses', ''), c('dataset', '', 'planning.data.gov.uk', 'e.g. flood-risk-zone, conservation-area'),
      c('entity', '', 'planning.data.gov.uk', 'entity number'), c('reference', '', 'planning.data.gov.uk', ''),
      c('name', '', 'planning.data.gov.uk', ''), c('flood_risk_level', '2 or 3', 'flood-risk-zone', 'null for other datasets'),
    ],
  },
  ...MARKET_TABLES,
  ...VALUATION_TABLES,
  ...STR_TABLES,
];

/**
 * Row contracts checked before a build is published: each query counts the rows that break
 * the rule and must return 0.
 */
export const CONTRACTS: readonly { table: string; rule: string; violations: string }[] = [
  { table: 'properties', rule: 'uprn unique and present', violations: 'SELECT count(*) - count(DISTINCT uprn) FROM properties' },
  { table: 'properties', rule: 'located in the UK', violations: 'SELECT count(*) FROM properties WHERE lat IS NULL OR lat NOT BETWEEN 49 AND 61 OR lng NOT BETWEEN -9 AND 2.5' },
  { table: 'properties', rule: 'country is England, Wales or Scotland', violations: "SELECT count(*) FROM properties WHERE country NOT IN ('England', 'Wales', 'Scotland')" },
  { table: 'properties', rule: 'plausible floor area (sq ft)', violations: 'SELECT count(*) FROM properties WHERE floor_area_sqft IS NOT NULL AND floor_area_sqft NOT BETWEEN 50 AND 50000' },
  { table: 'properties', rule: 'EPC ratings are A to G', violations: "SELECT count(*) FROM properties WHERE epc_current_rating NOT IN ('A','B','C','D','E','F','G') OR epc_potential_rating NOT IN ('A','B','C','D','E','F','G')" },
  { table: 'properties', rule: 'flood zone 3 implies zone 2', violations: 'SELECT count(*) FROM properties WHERE flood_zone_3 AND NOT flood_zone_2' },
  { table: 'sales', rule: 'positive price, date not in the future', violations: 'SELECT count(*) FROM sales WHERE price <= 0 OR date > current_date' },
  { table: 'sales', rule: 'every sale belongs to a known UPRN', violations: 'SELECT count(*) FROM sales s ANTI JOIN properties p USING (uprn)' },
  { table: 'price_index_monthly', rule: 'one row per area and month', violations: 'SELECT count(*) - count(DISTINCT (area_level, area_code, month)) FROM price_index_monthly' },
  { table: 'price_index_monthly', rule: 'index positive', violations: 'SELECT count(*) FROM price_index_monthly WHERE NOT (index > 0)' },
  { table: 'postcodes', rule: 'one row per postcode', violations: 'SELECT count(*) - count(DISTINCT postcode) FROM postcodes' },
  { table: 'rents_area', rule: 'quartiles ordered', violations: 'SELECT count(*) FROM rents_area WHERE NOT (p25_pcm <= median_pcm AND median_pcm <= p75_pcm)' },
  { table: 'str_listing_months', rule: 'one row per listing and month', violations: 'SELECT count(*) - count(DISTINCT (id, month)) FROM str_listing_months' },
  { table: 'str_listing_months', rule: 'occupancy 0–1, booked within available', violations: 'SELECT count(*) FROM str_listing_months WHERE occupancy NOT BETWEEN 0 AND 1 OR booked_nights > available_nights' },
  { table: 'str_area_months', rule: 'occupancy 0–1', violations: 'SELECT count(*) FROM str_area_months WHERE occupancy NOT BETWEEN 0 AND 1' },
  { table: 'str_listings', rule: 'one row per listing', violations: 'SELECT count(*) - count(DISTINCT id) FROM str_listings' },
  { table: 'rents_rooms', rule: 'quartiles ordered', violations: 'SELECT count(*) FROM rents_rooms WHERE NOT (p25_pcm <= median_pcm AND median_pcm <= p75_pcm)' },
];
