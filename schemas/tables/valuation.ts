import { col, type TableContract } from './contract.ts';

/**
 * Contracts of the evidence tables of the HMO, development GDV and long-term rent endpoints
 * (docs/valuation-rental-hmo.md, docs/valuation-gdv-rents.md).
 */

/** Fewer sales of 3+ bedroom houses than this in an area: no HMO yield for it. */
export const MIN_HMO_YIELD_SALES = 10;

const c = col;
export const VALUATION_TABLES: TableContract[] = [
  {
    name: 'rent_lets', sortKey: ['outcode', 'sector', 'postcode', 'let_date'],
    description: 'lets (whole property or one room) agreed in the 24 months to the end of the rental evidence\'s latest month, one row per let, with a position',
    columns: [
      c('evidence_id', 'VARCHAR', '', 'rental evidence', 'the let'),
      c('let_date', 'DATE', 'ISO date', 'rental evidence', 'date the let was agreed'),
      c('let_type', 'VARCHAR', '', 'rental evidence', 'whole (the whole property) or room (one room of a shared house)'),
      c('property_type', 'VARCHAR', '', 'rental evidence', 'house or flat'),
      c('bedrooms', 'INTEGER', '', 'rental evidence', 'bedrooms of the property (of the whole shared house for a room let); 0 studio'),
      c('rent_pcm', 'DOUBLE', 'GBP per month', 'rental evidence', 'agreed rent (of the one room for a room let)'),
      c('postcode', 'VARCHAR', '', 'rental evidence', ''),
      c('sector', 'VARCHAR', '', 'derived', 'postcode sector'),
      c('outcode', 'VARCHAR', '', 'derived', 'outward code'),
      c('district', 'VARCHAR', 'GSS code', 'postcodes', 'local authority of the postcode'),
      c('uprn', 'BIGINT', '', 'rental evidence', 'UPRN when the evidence names one known to the build, else null'),
      c('lat', 'DOUBLE', 'WGS84 degrees', 'properties by UPRN, else postcodes', 'latitude'),
      c('lng', 'DOUBLE', 'WGS84 degrees', 'as lat', 'longitude'),
    ],
  },
  {
    name: 'sqft_sales', sortKey: ['kind', 'lat', 'lng'],
    description: 'standard sales of the 36 months to the end of Price Paid\'s latest month of homes with an EPC floor area: price brought to the index\'s last month, £ per sq ft, new build or resale, position',
    columns: [
      c('uprn', 'BIGINT', '', 'sales', ''),
      c('date', 'DATE', 'ISO date', 'Price Paid', 'date of transfer'),
      c('price', 'BIGINT', 'GBP', 'Price Paid', 'price paid'),
      c('price_now', 'DOUBLE', 'GBP', 'Price Paid × price_index_monthly', 'price brought to the index\'s last month by the outcode index (the country\'s where the outcode has none)'),
      c('new_build', 'BOOLEAN', '', 'Price Paid', 'sold as a new build'),
      c('property_type', 'VARCHAR', '', 'properties', 'Detached, Semi-Detached, Terraced or Flat'),
      c('kind', 'VARCHAR', '', 'derived', 'flat (property_type Flat) or house'),
      c('bedrooms', 'INTEGER', '', 'properties', ''),
      c('floor_area_sqft', 'DOUBLE', 'sq ft', 'properties (EPC)', ''),
      c('gbp_sqft', 'DOUBLE', 'GBP per sq ft', 'derived', 'price_now ÷ floor_area_sqft'),
      c('lat', 'DOUBLE', 'WGS84 degrees', 'properties', ''), c('lng', 'DOUBLE', 'WGS84 degrees', 'properties', ''),
      c('sector', 'VARCHAR', '', 'properties', ''), c('outcode', 'VARCHAR', '', 'properties', ''), c('district', 'VARCHAR', 'GSS code', 'properties', 'local authority'),
    ],
  },
  {
    name: 'hmo_yields_area', sortKey: ['area_level', 'area_code'],
    description: 'gross yield of a 3+ bedroom house let room by room, by area: area room rent × bedrooms × 12 ÷ recent price',
    columns: [
      c('area_level', 'VARCHAR', '', 'derived', 'district, outcode or sector'),
      c('area_code', 'VARCHAR', '', 'derived', 'local authority GSS code, outcode or sector'),
      c('room_rent_pcm', 'DOUBLE', 'GBP per month', 'rents_rooms', 'the area\'s median room rent used'),
      c('rent_source', 'VARCHAR', '', 'rents_rooms', 'evidence, ons_district or evidence_thin'),
      c('sales_count', 'INTEGER', '', 'sqft_sales', `3+ bedroom house sales behind the yield (at least ${MIN_HMO_YIELD_SALES})`),
      c('gross_yield_pct', 'DOUBLE', 'percent', 'derived', 'median of 100 × room rent × bedrooms × 12 ÷ price_now'),
      c('p25_yield_pct', 'DOUBLE', 'percent', 'derived', '25th percentile'),
      c('p75_yield_pct', 'DOUBLE', 'percent', 'derived', '75th percentile'),
    ],
    rules: [
      { rule: 'every row has its yields', never: 'gross_yield_pct IS NULL OR p25_yield_pct IS NULL OR p75_yield_pct IS NULL' },
    ],
  },
];
