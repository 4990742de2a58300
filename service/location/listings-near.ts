import type { Listing } from './sets.ts';

/** A listing as the listings and deals answers show it. */
export function listingView(l: Listing, d: number | null) {
  return {
    listing_id: l.listing_id, uprn: l.uprn, address: l.address, postcode: l.postcode, price: l.price, price_qualifier: l.price_qualifier,
    bedrooms: l.bedrooms, property_type: l.property_type, tenure: l.tenure, listed_date: l.listed_date,
    distance_m: d === null ? null : Math.round(d), location: l.location, agent_ref: l.agent_ref, status: l.status,
  };
}
