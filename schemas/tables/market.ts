import { col, type ColumnContract, type TableContract } from './contract.ts';

/**
 * Contracts of the price, postcode and rent marts (docs/marts.md): the area price index and
 * growth, £ per sq ft, the postcode directory, rents by area and bedrooms, room rents and gross
 * yields. The thresholds below define published columns (`enough_sales`, `source`), so they
 * are part of the contract; the ETL stages import them from here.
 */

/** An area has "enough sales" in a month with this many repeat pairs overall … */
export const MIN_REPEAT_PAIRS = 30;
/** … and this many sales in the 12 months to that month. */
export const MIN_SALES_12M = 10;
/**
 * The index against UK HPI (issue 48): a district whose own index moved more than
 * `tolerancePp` percentage points away from UK HPI's change over the last `windowMonths`
 * months both have is flagged in the manifest, and its index carries no High valuation. On
 * the synthetic region the gaps are 0.1-3.4 points; repeat-sales and UK HPI's hedonic
 * method differ by a few points on real districts too, so 5 points is a divergence, not noise.
 */
export const INDEX_CHECK = { tolerancePp: 5, windowMonths: 12 } as const;
/** Fewer lets than this in an area and bedroom count: fall back to the ONS district figure. */
export const MIN_LETS = 10;
/** Fewer comparable sales than this: no yield for the area and bedroom count. */
export const MIN_YIELD_SALES = 5;
/** The index's base month (= 100), UK HPI's reference month; the index's last month when outside the data. */
export const INDEX_BASE_MONTH = '2023-01';


const c = col;
const LEVEL = 'country, district (local authority GSS code), outcode or sector';
const RENT_STATS = (what: string): ColumnContract[] => [
  c('source', 'VARCHAR', '', 'derived', `evidence (≥ ${MIN_LETS} lets), ons_district (the local authority's ONS figure) or evidence_thin (fewer lets, no ONS figure)`),
  c('median_pcm', 'DOUBLE', 'GBP per month', 'rental evidence or ONS', `median ${what}`),
  c('mean_pcm', 'DOUBLE', 'GBP per month', 'rental evidence or ONS', `mean ${what}`),
  c('p25_pcm', 'DOUBLE', 'GBP per month', 'rental evidence or ONS', '25th percentile (ONS lower quartile)'),
  c('p75_pcm', 'DOUBLE', 'GBP per month', 'rental evidence or ONS', '75th percentile (ONS upper quartile)'),
  c('sample_size', 'INTEGER', '', 'rental evidence or ONS', 'lets behind the figures (ONS count of rents when source is ons_district)'),
  c('evidence_count', 'INTEGER', '', 'rental evidence', 'lets of the last 24 months in the area, whatever the source'),
  c('la_code', 'VARCHAR', 'GSS code', 'postcodes', 'local authority the area mostly lies in (whose ONS figures are the fallback)'),
];

export const MARKET_TABLES: TableContract[] = [
  {
    name: 'price_index_monthly', sortKey: ['area_level', 'area_code', 'month'],
    description: `repeat-sales house price index by area and month (${INDEX_BASE_MONTH} = 100), with volumes and medians`,
    columns: [
      c('area_level', 'VARCHAR', '', 'derived', 'country, district, outcode or sector'),
      c('area_code', 'VARCHAR', '', 'addresses', `the area: ${LEVEL}`),
      c('month', 'VARCHAR', 'YYYY-MM', 'derived', 'from the first sale of the build to Price Paid\'s latest month (its as-of, not the build date)'),
      c('parent_code', 'VARCHAR', '', 'derived', 'the area this one is shrunk towards (sector → outcode → district → country)'),
      c('index', 'DOUBLE', `${INDEX_BASE_MONTH} = 100`, 'Price Paid repeat sales', 'regularised repeat-sales index (docs/marts.md); the last month when the data do not reach the base month'),
      c('sales_count', 'INTEGER', '', 'Price Paid, matched', 'sales in the area that month (all categories)'),
      c('median_price', 'DOUBLE', 'GBP', 'Price Paid, matched', 'median price of those sales; null when none'),
      c('sales_12m', 'INTEGER', '', 'Price Paid, matched', 'sales in the 12 months to the month'),
      c('repeat_pairs', 'INTEGER', '', 'Price Paid, matched', 'repeat-sale pairs inside the area (all months)'),
      c('enough_sales', 'BOOLEAN', '', 'derived', `repeat_pairs ≥ ${MIN_REPEAT_PAIRS} and sales_12m ≥ ${MIN_SALES_12M}: the area's own index can be used`),
    ],
    rules: [
      { rule: 'one row per area and month', unique: ['area_level', 'area_code', 'month'] },
      { rule: 'index positive', never: 'NOT (index > 0)' },
    ],
  },
  {
    name: 'price_growth', sortKey: ['area_level', 'area_code'],
    description: 'index growth over 1, 3, 5 and 10 years to Price Paid\'s latest month, by area',
    columns: [
      c('area_level', 'VARCHAR', '', 'derived', 'country, district, outcode or sector'),
      c('area_code', 'VARCHAR', '', 'addresses', `the area: ${LEVEL}`),
      c('parent_code', 'VARCHAR', '', 'derived', 'the parent area of the index'),
      c('as_of_month', 'VARCHAR', 'YYYY-MM', 'derived', 'Price Paid\'s latest month in the build (its as-of), where every window ends'),
      c('index', 'DOUBLE', `${INDEX_BASE_MONTH} = 100`, 'price_index_monthly', 'index at as_of_month'),
      c('growth_1y', 'DOUBLE', 'fraction', 'price_index_monthly', 'index change over 12 months; null when the index is shorter'),
      c('growth_3y', 'DOUBLE', 'fraction', 'price_index_monthly', 'over 36 months'),
      c('growth_5y', 'DOUBLE', 'fraction', 'price_index_monthly', 'over 60 months'),
      c('growth_10y', 'DOUBLE', 'fraction', 'price_index_monthly', 'over 120 months'),
      c('sales_12m', 'INTEGER', '', 'Price Paid, matched', 'sales in the last 12 months'),
      c('median_price_12m', 'DOUBLE', 'GBP', 'Price Paid, matched', 'median price of those sales'),
      c('repeat_pairs', 'INTEGER', '', 'Price Paid, matched', 'repeat-sale pairs inside the area'),
      c('enough_sales', 'BOOLEAN', '', 'derived', 'as in price_index_monthly, at as_of_month'),
    ],
  },
  {
    name: 'ukhpi_monthly', sortKey: ['area_code', 'month'],
    description: 'UK House Price Index by area and month as published, for areas without enough sales',
    columns: [
      c('area_code', 'VARCHAR', 'GSS code', 'UK HPI', 'local authority, region or country'),
      c('month', 'VARCHAR', 'YYYY-MM', 'UK HPI', ''),
      c('region_name', 'VARCHAR', '', 'UK HPI', ''),
      c('index', 'DOUBLE', 'Jan 2023 = 100', 'UK HPI', 'all property types'),
      c('average_price', 'DOUBLE', 'GBP', 'UK HPI', 'all property types'),
      c('change_12m_pct', 'DOUBLE', 'percent', 'UK HPI', 'annual change'),
      c('sales_volume', 'INTEGER', '', 'UK HPI', ''),
      c('detached_price', 'DOUBLE', 'GBP', 'UK HPI', ''), c('detached_index', 'DOUBLE', 'Jan 2023 = 100', 'UK HPI', ''),
      c('semi_detached_price', 'DOUBLE', 'GBP', 'UK HPI', ''), c('semi_detached_index', 'DOUBLE', 'Jan 2023 = 100', 'UK HPI', ''),
      c('terraced_price', 'DOUBLE', 'GBP', 'UK HPI', ''), c('terraced_index', 'DOUBLE', 'Jan 2023 = 100', 'UK HPI', ''),
      c('flat_price', 'DOUBLE', 'GBP', 'UK HPI', 'flats and maisonettes'), c('flat_index', 'DOUBLE', 'Jan 2023 = 100', 'UK HPI', ''),
    ],
  },
  {
    name: 'price_per_sqft', sortKey: ['area_level', 'area_code', 'property_type', 'segment'],
    description: '£ per sq ft of standard sales in the last 24 months (prices brought to the index\'s last month) with an EPC floor area',
    columns: [
      c('area_level', 'VARCHAR', '', 'derived', 'district, outcode or sector'),
      c('area_code', 'VARCHAR', '', 'addresses', 'local authority GSS code, outcode or sector'),
      c('property_type', 'VARCHAR', '', 'properties', 'Detached, Semi-Detached, Terraced, Flat or All'),
      c('segment', 'VARCHAR', '', 'Price Paid old/new', 'new_build, resale or all'),
      c('sales_count', 'INTEGER', '', 'Price Paid, matched', 'sales behind the figures'),
      c('median_gbp_sqft', 'DOUBLE', 'GBP per sq ft', 'Price Paid ÷ EPC floor area', 'median of index-adjusted price ÷ floor area'),
      c('p25_gbp_sqft', 'DOUBLE', 'GBP per sq ft', 'Price Paid ÷ EPC floor area', '25th percentile'),
      c('p75_gbp_sqft', 'DOUBLE', 'GBP per sq ft', 'Price Paid ÷ EPC floor area', '75th percentile'),
      c('iqr_ratio', 'DOUBLE', 'fraction', 'derived', 'dispersion: (p75 − p25) ÷ median'),
    ],
  },
  {
    name: 'postcodes', sortKey: ['postcode'],
    description: 'one row per postcode (ONSPD, else Code-Point Open, else the address base) with address count and recent median price',
    columns: [
      c('postcode', 'VARCHAR', '', 'ONSPD pcds / Code-Point / AddressBase', 'canonical form "AA9 9AA"'),
      c('outcode', 'VARCHAR', '', 'derived', 'outward code'),
      c('sector', 'VARCHAR', '', 'derived', 'postcode sector'),
      c('lat', 'DOUBLE', 'WGS84 degrees', 'ONSPD, else Code-Point (converted from OSGB36), else mean of its addresses', 'latitude; null when no source locates it'),
      c('lng', 'DOUBLE', 'WGS84 degrees', 'as lat', 'longitude'),
      c('country', 'VARCHAR', '', 'ONSPD ctry, else Code-Point country code, else addresses', 'England, Wales or Scotland'),
      c('la_code', 'VARCHAR', 'GSS code', 'ONSPD oslaua, else Code-Point admin district, else addresses', 'local authority district'),
      c('ward', 'VARCHAR', 'GSS code', 'ONSPD osward, else Code-Point admin ward', 'electoral ward'),
      c('terminated', 'BOOLEAN', '', 'ONSPD doterm', 'true when the postcode is no longer in use'),
      c('date_terminated', 'DATE', 'ISO date', 'ONSPD doterm', 'first day of the month of termination; null when live'),
      c('address_count', 'INTEGER', '', 'addresses', 'address-base addresses now at the postcode'),
      c('median_price_5y', 'DOUBLE', 'GBP', 'Price Paid, matched', 'median price of sales of those homes in the last 5 years'),
      c('sales_5y', 'INTEGER', '', 'Price Paid, matched', 'count of those sales'),
      c('source', 'VARCHAR', '', 'derived', 'onspd, codepoint or addressbase: the directory the row comes from'),
    ],
    rules: [{ rule: 'one row per postcode', unique: ['postcode'] }],
  },
  {
    name: 'rents_area', sortKey: ['area_level', 'area_code', 'bedrooms'],
    description: 'long-term monthly rents by area and bedrooms (whole-property lets of the last 24 months; ONS fallback)',
    columns: [
      c('area_level', 'VARCHAR', '', 'derived', 'district, outcode or sector'),
      c('area_code', 'VARCHAR', '', 'rental evidence postcode / postcodes', 'local authority GSS code, outcode or sector'),
      c('bedrooms', 'INTEGER', '', 'rental evidence / ONS category', '0 studio, 1, 2, 3, 4 = four or more'),
      ...RENT_STATS('rent of a whole property').map((d) => (d.name === 'source'
        ? c('source', 'VARCHAR', '', 'derived', `evidence (≥ ${MIN_LETS} lets), shrunk (fewer lets, shrunk toward prior_level's figures), ons_district (no lets: the local authority's ONS figure) or evidence_thin (fewer lets, no wider figure)`)
        : d)),
      c('prior_level', 'VARCHAR', '', 'derived', 'the wider area a thin row was shrunk toward: outcode (for a sector), district (for an outcode) or ons_district (for a district); null when not thin (docs/marts.md, "Thin samples")'),
      c('credibility', 'DOUBLE', '0–1', 'derived', `weight of the area's own lets: sqrt(lets ÷ ${MIN_LETS}), at most 1; 0 for ons_district`),
    ],
    rules: [
      { rule: 'quartiles ordered', never: 'NOT (p25_pcm <= median_pcm AND median_pcm <= p75_pcm)' },
      { rule: 'a shrunk row names the area it was shrunk toward', never: "source = 'shrunk' AND prior_level IS NULL" },
    ],
  },
  {
    name: 'rents_rooms', sortKey: ['area_level', 'area_code'],
    description: 'monthly rent of a room in a shared house by area (room lets of the last 24 months; ONS "Room" fallback)',
    columns: [
      c('area_level', 'VARCHAR', '', 'derived', 'district, outcode or sector'),
      c('area_code', 'VARCHAR', '', 'rental evidence postcode / postcodes', 'local authority GSS code, outcode or sector'),
      ...RENT_STATS('rent of one room'),
    ],
    rules: [
      { rule: 'quartiles ordered', never: 'NOT (p25_pcm <= median_pcm AND median_pcm <= p75_pcm)' },
    ],
  },
  {
    name: 'yields_area', sortKey: ['area_level', 'area_code', 'bedrooms'],
    description: 'gross yield by area and bedrooms: median rent × 12 ÷ median recent price of homes with as many bedrooms',
    columns: [
      c('area_level', 'VARCHAR', '', 'derived', 'district, outcode or sector'),
      c('area_code', 'VARCHAR', '', 'derived', 'local authority GSS code, outcode or sector'),
      c('bedrooms', 'INTEGER', '', 'properties / rents_area', '0 studio … 4 = four or more'),
      c('median_rent_pcm', 'DOUBLE', 'GBP per month', 'rents_area', 'median monthly rent'),
      c('rent_source', 'VARCHAR', '', 'rents_area', 'evidence, shrunk, ons_district or evidence_thin'),
      c('rent_sample_size', 'INTEGER', '', 'rents_area', 'lets behind the rent (ONS count for ons_district)'),
      c('rent_prior_level', 'VARCHAR', '', 'rents_area', 'the wider area a thin rent was shrunk toward (null when not thin)'),
      c('median_price', 'DOUBLE', 'GBP', 'Price Paid, matched', `median index-adjusted price of the last 24 months' standard sales (at least ${MIN_YIELD_SALES})`),
      c('sales_count', 'INTEGER', '', 'Price Paid, matched', 'sales behind median_price'),
      c('gross_yield_pct', 'DOUBLE', 'percent', 'derived', '100 × median_rent_pcm × 12 ÷ median_price'),
    ],
    rules: [{ rule: 'every yield counts its sales', never: 'sales_count IS NULL' }],
  },
];
