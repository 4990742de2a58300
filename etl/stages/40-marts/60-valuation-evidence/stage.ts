import { col, type PublishedTable, type Stage } from '../../../pipeline/context.ts';
import { runSql } from '../../../pipeline/sql.ts';

/**
 * Evidence tables of the HMO, development GDV and long-term rent endpoints
 * (docs/valuation.md): lets and recent sales one row each, with positions, so the service
 * can aggregate them by any area or radius; and the area HMO yields.
 */

/** Fewer sales of 3+ bedroom houses than this in an area: no HMO yield for it. */
export const MIN_HMO_YIELD_SALES = 10;

export const valuationEvidenceStage: Stage = {
  name: 'valuation_evidence',
  description: 'lets of the last 24 months and floor-area-matched sales of the last 36 months with positions; area HMO yields',
  reads: ['stg_rental_evidence', 'properties', 'postcodes', 'sales', 'price_index_monthly', 'rents_rooms'],
  writes: ['rent_lets', 'sqft_sales', 'hmo_yields_area'],
  async run(ctx) {
    await runSql(ctx.conn, 'valuation_rent_lets', { today: ctx.today });
    await runSql(ctx.conn, 'valuation_sqft_sales', { today: ctx.today });
    await runSql(ctx.conn, 'valuation_hmo_yields', { min_sales: MIN_HMO_YIELD_SALES });
  },
};

const c = col;
export const VALUATION_TABLES: PublishedTable[] = [
  {
    name: 'rent_lets', sortKey: ['outcode', 'sector', 'postcode', 'let_date'],
    description: 'lets (whole property or one room) agreed in the 24 months to the build date, one row per let, with a position',
    columns: [
      c('evidence_id', '', 'rental evidence', 'the let'),
      c('let_date', 'ISO date', 'rental evidence', 'date the let was agreed'),
      c('let_type', '', 'rental evidence', 'whole (the whole property) or room (one room of a shared house)'),
      c('property_type', '', 'rental evidence', 'house or flat'),
      c('bedrooms', '', 'rental evidence', 'bedrooms of the property (of the whole shared house for a room let); 0 studio'),
      c('rent_pcm', 'GBP per month', 'rental evidence', 'agreed rent (of the one room for a room let)'),
      c('postcode', '', 'rental evidence', ''),
      c('sector', '', 'derived', 'postcode sector'),
      c('outcode', '', 'derived', 'outward code'),
      c('district', 'GSS code', 'postcodes', 'local authority of the postcode'),
      c('uprn', '', 'rental evidence', 'UPRN when the evidence names one known to the build, else null'),
      c('lat', 'WGS84 degrees', 'properties by UPRN, else postcodes', 'latitude'),
      c('lng', 'WGS84 degrees', 'as lat', 'longitude'),
    ],
  },
  {
    name: 'sqft_sales', sortKey: ['kind', 'lat', 'lng'],
    description: 'standard sales of the 36 months to the build date of homes with an EPC floor area: price brought to the build month, £ per sq ft, new build or resale, position',
    columns: [
      c('uprn', '', 'sales', ''),
      c('date', 'ISO date', 'Price Paid', 'date of transfer'),
      c('price', 'GBP', 'Price Paid', 'price paid'),
      c('price_now', 'GBP', 'Price Paid × price_index_monthly', 'price brought to the build month by the outcode index (the country\'s where the outcode has none)'),
      c('new_build', '', 'Price Paid', 'sold as a new build'),
      c('property_type', '', 'properties', 'Detached, Semi-Detached, Terraced or Flat'),
      c('kind', '', 'derived', 'flat (property_type Flat) or house'),
      c('bedrooms', '', 'properties', ''),
      c('floor_area_sqft', 'sq ft', 'properties (EPC)', ''),
      c('gbp_sqft', 'GBP per sq ft', 'derived', 'price_now ÷ floor_area_sqft'),
      c('lat', 'WGS84 degrees', 'properties', ''), c('lng', 'WGS84 degrees', 'properties', ''),
      c('sector', '', 'properties', ''), c('outcode', '', 'properties', ''), c('district', 'GSS code', 'properties', 'local authority'),
    ],
  },
  {
    name: 'hmo_yields_area', sortKey: ['area_level', 'area_code'],
    description: 'gross yield of a 3+ bedroom house let room by room, by area: area room rent × bedrooms × 12 ÷ recent price',
    columns: [
      c('area_level', '', 'derived', 'district, outcode or sector'),
      c('area_code', '', 'derived', 'local authority GSS code, outcode or sector'),
      c('room_rent_pcm', 'GBP per month', 'rents_rooms', 'the area\'s median room rent used'),
      c('rent_source', '', 'rents_rooms', 'evidence, ons_district or evidence_thin'),
      c('sales_count', '', 'sqft_sales', `3+ bedroom house sales behind the yield (at least ${MIN_HMO_YIELD_SALES})`),
      c('gross_yield_pct', 'percent', 'derived', 'median of 100 × room rent × bedrooms × 12 ÷ price_now'),
      c('p25_yield_pct', 'percent', 'derived', '25th percentile'),
      c('p75_yield_pct', 'percent', 'derived', '75th percentile'),
    ],
  },
];
