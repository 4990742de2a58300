import type { StrMarketSet } from './market-set.ts';

/** Runs a named statement and returns its columns (a BuildStore's queryColumns). */
export type RunColumns = (name: string) => Promise<Record<string, unknown[]>>;

const numOrNaN = (v: unknown) => (v === null || v === undefined ? NaN : Number(v));

/**
 * What GET /str/listings shows of each listing, as columns in the market set's row order
 * (str_listing_rows.sql selects the same rows in the same order as str_market_listings), so a
 * market-set row number indexes these too. NaN where the source has no figure.
 */
export interface StrListingRows {
  n: number;
  id: string[];
  listingType: string[];
  propertyType: (string | null)[];
  bedrooms: Float64Array;
  bathrooms: Float64Array;
  accommodates: Float64Array;
  adr: Float64Array;
  occupancy: Float64Array;
  revenue: Float64Array;
  rating: Float64Array;
  reviews: Float64Array;
  hostListings: Float64Array;
  scraped: string[];
}

export async function loadStrListingRows(run: RunColumns, set: StrMarketSet): Promise<StrListingRows> {
  const c = await run('str_listing_rows');
  const n = (c.id ?? []).length;
  // The two statements must give the same rows in the same order: checked, not assumed.
  const lat = c.lat ?? [];
  if (n !== set.listings.n || lat.some((v, i) => Number(v) !== set.listings.lat[i])) {
    throw new Error(`str_listing_rows (${n} rows) is not aligned with the market set (${set.listings.n} rows)`);
  }
  const nums = (k: string) => Float64Array.from(c[k] ?? [], numOrNaN);
  return {
    n,
    id: c.id!.map(String),
    listingType: (c.listing_type ?? []).map(String),
    propertyType: (c.property_type ?? []).map((v) => (v === null ? null : String(v))),
    bedrooms: nums('bedrooms'),
    bathrooms: nums('bathrooms'),
    accommodates: nums('accommodates'),
    adr: nums('adr_ltm'),
    occupancy: nums('occupancy_ltm'),
    revenue: nums('revenue_ltm'),
    rating: nums('rating_overall'),
    reviews: nums('number_of_reviews'),
    hostListings: nums('host_listings_count'),
    scraped: (c.scrape_date ?? []).map(String),
  };
}
