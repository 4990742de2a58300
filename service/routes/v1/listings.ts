import { LISTINGS_LOCATION, ListingsQuerySchema, ListingsSchema } from '../../../schemas/api/listings.ts';
import { aroundEcho } from '../../location/around.ts';
import { aroundOrNotFound } from '../place.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { listingView } from '../../location/listings-near.ts';
import type { Listing } from '../../location/sets.ts';

export default defineRoute({
  method: 'GET',
  path: '/listings',
  operationId: 'getListings',
  summary: 'For-sale and to-let listings near a location, paged',
  description:
    'Current listings from agents\' Rightmove feeds (their latest state; withdrawn ones dropped) within `radius_m` (default 1,000, at most 5,000) of a UPRN, postcode or point, or in an outcode. ' +
    '`price` is GBP: the asking price, or the rent per calendar month (weekly rents × 52 ÷ 12). `sort` newest (listed date), price_asc, price_desc or distance.',
  tag: 'Listings',
  cost: 1,
  query: ListingsQuerySchema,
  response: ListingsSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data }) => {
    const set = await data.listings.get().catch(notServedYet('GET /listings'));
    if (!set) return notServedYet('GET /listings')();
    const place = await aroundOrNotFound(query, LISTINGS_LOCATION, data);
    const found = set.at(place, {
      channel: query.type, min_price: query.min_price, max_price: query.max_price, min_bedrooms: query.min_bedrooms, max_bedrooms: query.max_bedrooms,
      property_type: query.property_type,
    });
    type Found = { l: Listing; d: number | null };
    // Every order ends on the listing id (unique): the set gives a place's listings in no promised order.
    const byId = (a: Found, b: Found) => (a.l.listing_id < b.l.listing_id ? -1 : a.l.listing_id > b.l.listing_id ? 1 : 0);
    const order = {
      newest: (a: Found, b: Found) => (b.l.listed_date ?? '').localeCompare(a.l.listed_date ?? '') || byId(a, b),
      price_asc: (a: Found, b: Found) => a.l.price - b.l.price || byId(a, b),
      price_desc: (a: Found, b: Found) => b.l.price - a.l.price || byId(a, b),
      distance: (a: Found, b: Found) => a.d! - b.d! || byId(a, b),
    }[query.sort];
    found.sort(order);
    const start = (query.page - 1) * query.per_page;
    return {
      location: aroundEcho(place),
      type: query.type,
      total: found.length,
      page: query.page,
      per_page: query.per_page,
      listings: found.slice(start, start + query.per_page).map(({ l, d }) => listingView(l, d)),
      source: { name: 'agents\' Rightmove feeds (BLM and Real Time Datafeed)', as_of: set.asOf },
    };
  },
});
