import type { Around } from './around.ts';
import type { Listing, ListingsSet } from './sets.ts';

/** The listings a place selects: within its radius (with distances) or in its outcode (no distance). */
export function listingsAt(set: ListingsSet, place: Around): { i: number; d: number | null }[] {
  if (place.kind === 'outcode') return (set.byOutcode.get(place.outcode) ?? []).map((i) => ({ i, d: null }));
  const out: { i: number; d: number | null }[] = [];
  set.grid.within(place.lat, place.lng, place.radius_m, (i, d) => out.push({ i, d }));
  return out;
}

/** A listing as the listings and deals answers show it. */
export function listingView(l: Listing, d: number | null) {
  return {
    listing_id: l.listing_id, uprn: l.uprn, address: l.address, postcode: l.postcode, price: l.price, price_qualifier: l.price_qualifier,
    bedrooms: l.bedrooms, property_type: l.property_type, tenure: l.tenure, listed_date: l.listed_date,
    distance_m: d === null ? null : Math.round(d), location: l.location, agent_ref: l.agent_ref, status: l.status,
  };
}
