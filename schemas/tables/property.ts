import { col, type ColumnContract, type TableContract } from './contract.ts';

/** Contracts of the property tables (docs/etl.md, docs/data-dictionary.md). */

const c = col;

const GEO: ColumnContract[] = [
  c('postcode', 'VARCHAR', '', 'AddressBase Core', 'postcode, canonical form "AA9 9AA"'),
  c('outcode', 'VARCHAR', '', 'derived', 'outward code (postcode district), e.g. "BS1"'),
  c('sector', 'VARCHAR', '', 'derived', 'postcode sector, e.g. "BS1 4"'),
  c('postcode_area', 'VARCHAR', '', 'derived', 'postcode area letters, e.g. "BS"'),
  c('lat', 'DOUBLE', 'WGS84 degrees', 'AddressBase Core, else OS Open UPRN', 'latitude'),
  c('lng', 'DOUBLE', 'WGS84 degrees', 'AddressBase Core, else OS Open UPRN', 'longitude'),
  c('country', 'VARCHAR', '', 'ONSPD by postcode, else the GSS code prefix', 'England, Wales or Scotland'),
  c('la_code', 'VARCHAR', 'GSS code', 'ONSPD oslaua, else AddressBase GSS_CODE', 'local authority district'),
];

/** The property tables: the merged record, addresses, sales, certificates, designations. */
export const PROPERTY_TABLES: TableContract[] = [
  {
    name: 'properties', sortKey: ['uprn'], description: 'the merged property record, one row per UPRN',
    columns: [
      c('uprn', 'BIGINT', '', 'AddressBase Core', 'Unique Property Reference Number'),
      c('address', 'VARCHAR', '', 'AddressBase Core', 'single-line formatted address'),
      ...GEO.slice(0, 4), GEO[7]!, ...GEO.slice(4, 7),
      c('property_type', 'VARCHAR', '', 'EPC built form, else latest sale type, else AddressBase classification', 'Detached, Semi-Detached, Terraced or Flat'),
      c('built_form', 'VARCHAR', '', 'EPC (latest non-blank)', 'e.g. Mid-Terrace, End-Terrace, Detached'),
      c('floor_area_sqft', 'DOUBLE', 'sq ft', 'EPC TOTAL_FLOOR_AREA × 10.7639', 'total floor area, rounded'),
      c('floor_area_m2', 'DOUBLE', 'm²', 'EPC (latest non-blank, > 0)', 'total floor area'),
      c('habitable_rooms', 'INTEGER', '', 'EPC NUMBER_HABITABLE_ROOMS', 'habitable rooms'),
      c('bedrooms', 'INTEGER', '', 'derived from habitable rooms (docs/etl.md)', 'flats and houses up to 4 rooms: rooms − 1; houses of 5+: rooms − 2'),
      c('tenure', 'VARCHAR', '', 'latest matched sale (Price Paid duration)', 'Freehold or Leasehold'),
      c('construction_age', 'VARCHAR', '', 'EPC CONSTRUCTION_AGE_BAND', 'age band as published, e.g. "England and Wales: 1900-1929"'),
      c('epc_current_rating', 'VARCHAR', 'A–G', 'EPC', 'current energy rating'),
      c('epc_potential_rating', 'VARCHAR', 'A–G', 'EPC', 'potential energy rating'),
      c('epc_current_efficiency', 'INTEGER', 'SAP points', 'EPC', 'current energy efficiency score'),
      c('epc_lodgement_date', 'DATE', 'ISO date', 'EPC', 'lodgement date of the latest certificate'),
      c('plot_size', 'DOUBLE', 'm²', 'none loaded (INSPIRE polygons are not among the sources)', 'always null for now'),
      c('last_sold_price', 'BIGINT', 'GBP', 'Price Paid, matched', 'price of the latest sale'),
      c('last_sold_date', 'DATE', 'ISO date', 'Price Paid, matched', 'date of the latest sale'),
      c('sale_count', 'BIGINT', '', 'Price Paid, matched', 'number of recorded sales'),
      c('flood_zone', 'INTEGER', '1–3', 'planning flood-risk-zone layer, point-in-polygon', 'highest flood zone containing the UPRN; 1 when none'),
      c('flood_zone_2', 'BOOLEAN', '', 'planning flood-risk-zone layer', 'inside flood zone 2 (or 3, which lies within the zone-2 extent)'),
      c('flood_zone_3', 'BOOLEAN', '', 'planning flood-risk-zone layer', 'inside flood zone 3'),
      c('conservation_area', 'BOOLEAN', '', 'planning conservation-area layer', 'inside a conservation area in force'),
      c('article_4', 'BOOLEAN', '', 'planning article-4-direction-area layer', 'inside an Article 4 direction area in force'),
      c('listed_building', 'BOOLEAN', '', 'planning listed-building(-outline) layer', 'inside a listed building outline'),
    ],
    rules: [
      { rule: 'uprn unique and present', unique: ['uprn'] },
      { rule: 'located in the UK', never: 'lat IS NULL OR lat NOT BETWEEN 49 AND 61 OR lng NOT BETWEEN -9 AND 2.5' },
      { rule: 'country is England, Wales or Scotland', never: "country NOT IN ('England', 'Wales', 'Scotland')" },
      { rule: 'plausible floor area (sq ft)', never: 'floor_area_sqft IS NOT NULL AND floor_area_sqft NOT BETWEEN 50 AND 50000' },
      { rule: 'EPC ratings are A to G', never: "epc_current_rating NOT IN ('A','B','C','D','E','F','G') OR epc_potential_rating NOT IN ('A','B','C','D','E','F','G')" },
      { rule: 'flood zone 3 implies zone 2', never: 'flood_zone_3 AND NOT flood_zone_2' },
    ],
  },
  {
    name: 'addresses', sortKey: ['uprn'], description: 'the canonical address of every UPRN with its structured parts and postcode geography',
    columns: [
      c('uprn', 'BIGINT', '', 'AddressBase Core', 'Unique Property Reference Number'),
      c('parent_uprn', 'BIGINT', '', 'AddressBase Core', 'UPRN of the parent (e.g. the building of a flat)'),
      c('address', 'VARCHAR', '', 'AddressBase Core', 'single-line formatted address'),
      c('organisation', 'VARCHAR', '', 'AddressBase Core', ''), c('sub_building', 'VARCHAR', '', 'AddressBase Core', 'e.g. "FLAT 2"'),
      c('building_name', 'VARCHAR', '', 'AddressBase Core', ''), c('building_number', 'VARCHAR', '', 'AddressBase Core', ''),
      c('street_name', 'VARCHAR', '', 'AddressBase Core', ''), c('locality', 'VARCHAR', '', 'AddressBase Core', ''),
      c('town_name', 'VARCHAR', '', 'AddressBase Core', ''), c('post_town', 'VARCHAR', '', 'AddressBase Core', ''),
      ...GEO.slice(0, 4),
      ...GEO.slice(4, 6),
      GEO[6]!, GEO[7]!,
      c('classification_code', 'VARCHAR', '', 'AddressBase Core', 'OS classification, e.g. RD04 terraced'),
    ],
  },
  {
    name: 'sales', sortKey: ['uprn', 'date'], description: 'price-paid sales matched to a UPRN (the sales history)',
    columns: [
      c('uprn', 'BIGINT', '', 'address match', 'UPRN the sale was matched to'),
      c('transaction_id', 'VARCHAR', '', 'Price Paid', 'transaction id (no braces)'),
      c('price', 'BIGINT', 'GBP', 'Price Paid', 'price paid'),
      c('date', 'DATE', 'ISO date', 'Price Paid', 'date of transfer'),
      c('property_type', 'VARCHAR', 'D/S/T/F/O', 'Price Paid', 'type at the sale'),
      c('new_build', 'BOOLEAN', '', 'Price Paid', 'new build'),
      c('tenure', 'VARCHAR', 'F/L/U', 'Price Paid', 'duration'),
      c('category', 'VARCHAR', 'A/B', 'Price Paid', 'A standard price-paid, B additional (repossessions, buy-to-let…)'),
      c('recorded_postcode', 'VARCHAR', '', 'Price Paid', 'postcode as recorded on the sale'),
      c('match_method', 'VARCHAR', '', 'address match', 'postcode (in the recorded postcode) or street (same street and town)'),
      c('match_score', 'DOUBLE', 'fraction 0–1', 'address match', 'word similarity of the match'),
    ],
    rules: [
      { rule: 'positive price, date not in the future', never: 'price <= 0 OR date > current_date' },
      { rule: 'every sale belongs to a known UPRN', references: { table: 'properties', column: 'uprn' } },
    ],
  },
  {
    name: 'sales_unmatched', sortKey: ['postcode', 'date'], description: 'price-paid sales no UPRN could be given, with the reason',
    columns: [
      c('transaction_id', 'VARCHAR', '', 'Price Paid', ''), c('price', 'BIGINT', 'GBP', 'Price Paid', ''), c('date', 'DATE', 'ISO date', 'Price Paid', ''),
      c('postcode', 'VARCHAR', '', 'Price Paid', 'as recorded'), c('saon', 'VARCHAR', '', 'Price Paid', ''), c('paon', 'VARCHAR', '', 'Price Paid', ''),
      c('street', 'VARCHAR', '', 'Price Paid', ''), c('town', 'VARCHAR', '', 'Price Paid', ''), c('property_type', 'VARCHAR', 'D/S/T/F/O', 'Price Paid', ''),
      c('new_build', 'BOOLEAN', '', 'Price Paid', ''), c('tenure', 'VARCHAR', 'F/L/U', 'Price Paid', ''), c('category', 'VARCHAR', 'A/B', 'Price Paid', ''),
      c('reason', 'VARCHAR', '', 'address match', 'no_postcode_candidates, no_number_match, ambiguous or low_similarity'),
    ],
  },
  {
    name: 'epc_linked', sortKey: ['uprn', 'lodgement_date'], description: 'energy certificates with the UPRN each belongs to',
    columns: [
      c('certificate_id', 'VARCHAR', '', 'EPC', 'LMK_KEY, ASSESSMENT_ID or CERTIFICATE_NUMBER'),
      c('address1', 'VARCHAR', '', 'EPC', ''), c('address2', 'VARCHAR', '', 'EPC', ''), c('address3', 'VARCHAR', '', 'EPC', ''),
      c('postcode', 'VARCHAR', '', 'EPC', ''), c('posttown', 'VARCHAR', '', 'EPC', ''), c('property_type', 'VARCHAR', '', 'EPC', 'House, Flat, Bungalow, Maisonette, Park home'),
      c('built_form', 'VARCHAR', '', 'EPC', ''), c('total_floor_area_m2', 'DOUBLE', 'm²', 'EPC', ''), c('number_habitable_rooms', 'INTEGER', '', 'EPC', ''),
      c('current_energy_efficiency', 'INTEGER', 'SAP points', 'EPC', ''),
      c('potential_energy_efficiency', 'INTEGER', 'SAP points', 'EPC', 'potential energy efficiency score'),
      c('construction_age_band', 'VARCHAR', '', 'EPC', ''),
      c('current_energy_rating', 'VARCHAR', 'A–G', 'EPC', ''), c('potential_energy_rating', 'VARCHAR', 'A–G', 'EPC', ''),
      c('tenure', 'VARCHAR', '', 'EPC', 'occupancy as recorded (owner-occupied, rental…), not legal tenure'),
      c('region', 'VARCHAR', '', 'EPC', ''), c('country', 'VARCHAR', '', 'EPC', ''),
      c('main_fuel', 'VARCHAR', '', 'EPC MAIN_FUEL', 'main heating fuel as recorded; null where the export has no such column'),
      c('lodgement_date', 'DATE', 'ISO date', 'EPC', ''), c('inspection_date', 'DATE', 'ISO date', 'EPC', ''),
      c('uprn', 'BIGINT', '', 'EPC UPRN if in the address base, else address match', ''),
      c('uprn_source', 'VARCHAR', '', 'derived', 'certificate or address_match; null when unmatched'),
    ],
  },
  {
    name: 'uprn_designations', sortKey: ['uprn'], description: 'planning and flood designations containing each UPRN',
    columns: [
      c('uprn', 'BIGINT', '', 'addresses', ''), c('dataset', 'VARCHAR', '', 'planning.data.gov.uk', 'e.g. flood-risk-zone, conservation-area'),
      c('entity', 'BIGINT', '', 'planning.data.gov.uk', 'entity number'), c('reference', 'VARCHAR', '', 'planning.data.gov.uk', ''),
      c('name', 'VARCHAR', '', 'planning.data.gov.uk', ''), c('flood_risk_level', 'INTEGER', '2 or 3', 'flood-risk-zone', 'null for other datasets'),
    ],
  },
];
