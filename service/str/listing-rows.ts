import { haversineM } from '../../lib/geo/points.ts';
import { listingOrder, roundPosition } from '../domain/str/listings.ts';
import type { MarketListings } from '../domain/str/market-listings.ts';
import type { StrMarket } from './market-set.ts';
import type { StoreReads } from '../store/store.ts';

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

export async function loadStrListingRows(store: StoreReads, set: StrMarket): Promise<StrListingRows> {
  const c = await store.columns('str_listing_rows');
  const n = c.id.length;
  // The two statements must give the same rows in the same order: checked, not assumed.
  const lat = set.lats();
  if (n !== set.size || c.lat.some((v, i) => v !== lat[i])) {
    throw new Error(`str_listing_rows (${n} rows) is not aligned with the market set (${set.size} rows)`);
  }
  /** NaN where the listing has no figure. */
  const nums = (k: 'bedrooms' | 'bathrooms' | 'accommodates' | 'adr_ltm' | 'occupancy_ltm' | 'revenue_ltm' | 'rating_overall' | 'number_of_reviews' | 'host_listings_count') =>
    Float64Array.from(c[k], (v) => v ?? NaN);
  return {
    n,
    id: c.id,
    listingType: c.listing_type,
    propertyType: c.property_type,
    bedrooms: nums('bedrooms'),
    bathrooms: nums('bathrooms'),
    accommodates: nums('accommodates'),
    adr: nums('adr_ltm'),
    occupancy: nums('occupancy_ltm'),
    revenue: nums('revenue_ltm'),
    rating: nums('rating_overall'),
    reviews: nums('number_of_reviews'),
    hostListings: nums('host_listings_count'),
    scraped: c.scrape_date,
  };
}

const orNull = (v: number) => (Number.isNaN(v) ? null : v);
const r2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The listings `idx` in GET /str/listings' order for `sort` (a figure descending, or distance
 * from `point` ascending; ties by id), each with its distance from `point` (null without one).
 */
export function listingsSorted(
  rows: StrListingRows, s: MarketListings, idx: readonly number[], point: { lat: number; lng: number } | null,
  sort: 'revenue' | 'adr' | 'occupancy' | 'rating' | 'distance', rnOf: (i: number) => number = (i) => i,
): { i: number; d: number | null }[] {
  const dist = Float64Array.from(idx, (i) => (point ? haversineM(point.lat, point.lng, s.lat[i]!, s.lng[i]!) : NaN));
  const figure = {
    revenue: () => Float64Array.from(idx, (i) => rows.revenue[rnOf(i)]!),
    adr: () => Float64Array.from(idx, (i) => rows.adr[rnOf(i)]!),
    occupancy: () => Float64Array.from(idx, (i) => rows.occupancy[rnOf(i)]!),
    rating: () => Float64Array.from(idx, (i) => rows.rating[rnOf(i)]!),
    distance: () => dist,
  }[sort]();
  return listingOrder(figure, idx.map((i) => rows.id[rnOf(i)]!), sort !== 'distance').map((k) => ({ i: idx[k]!, d: point ? dist[k]! : null }));
}

/**
 * Listing `i` of `s` (row `rn` of the build's set and of `rows`) as GET /str/listings shows it,
 * `d` metres from the point asked about (null without one).
 */
export function listingRowView(rows: StrListingRows, s: MarketListings, si: number, d: number | null, i: number = si) {
  const kind = rows.propertyType[i];
  const occ = rows.occupancy[i]!;
  return {
    listing_id: rows.id[i]!,
    listing_type: rows.listingType[i]!,
    property_type: kind === 'house' ? ('house' as const) : kind === 'apartment' ? ('apartment' as const) : null,
    bedrooms: orNull(rows.bedrooms[i]!),
    bathrooms: orNull(rows.bathrooms[i]!),
    accommodates: orNull(rows.accommodates[i]!),
    lat: roundPosition(s.lat[si]!),
    lng: roundPosition(s.lng[si]!),
    adr: Number.isNaN(rows.adr[i]!) ? null : r2(rows.adr[i]!),
    occupancy_pct: Number.isNaN(occ) ? null : Math.round(occ * 1000) / 10,
    revenue_annual: Number.isNaN(rows.revenue[i]!) ? null : Math.round(rows.revenue[i]!),
    rating: orNull(rows.rating[i]!),
    reviews_count: orNull(rows.reviews[i]!),
    host_listings_count: orNull(rows.hostListings[i]!),
    last_scraped: rows.scraped[i]!,
    distance_m: d === null ? null : Math.round(d),
  };
}
