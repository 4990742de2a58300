import { StrListingsQuerySchema, StrListingsSchema } from '../../../schemas/api/str.ts';
import { listingOrder, roundPosition } from '../../domain/str/listings.ts';
import { passes } from '../../domain/str/market-listings.ts';
import { haversineM } from '../../../lib/geo/points.ts';
import { ApiError } from '../../middleware/errors.ts';
import { locateListings } from '../../str/locate.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

const orNull = (v: number) => (Number.isNaN(v) ? null : v);
const r2 = (v: number) => Math.round(v * 100) / 100;

export default defineRoute({
  method: 'GET',
  path: '/str/listings',
  operationId: 'getStrListings',
  summary: 'Listing-level short-term-let performance in an area, paged',
  description:
    'The listings behind GET /str/market, with its location forms and filters (a full postcode selects listings within 1 km of its point; a sector or outcode those placed in it). ' +
    'Sorted by `sort` (revenue, adr, occupancy or rating highest first, distance nearest first), paged by `page` and `per_page` (at most 50); a page past the end is a 400. ' +
    'Figures are the last 12 months estimated from the calendar and reviews (docs/str.md); positions rounded to about 100 m. 404 when no listing is selected after the filters.',
  tag: 'Short-term lets',
  cost: 3,
  query: StrListingsQuerySchema,
  response: StrListingsSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data }) => {
    const set = await data.strMarket.get().catch(notServedYet('GET /str/listings'));
    const rows = await data.strListingRows.get().catch(notServedYet('GET /str/listings'));
    const found = await locateListings(set, query, data);
    if ('not_found' in found) throw new ApiError('not_found', found.not_found);
    const s = set.listings;
    const idx = found.idx.filter((i) => passes(s, i, query));
    if (found.idx.length === 0) throw new ApiError('not_found', `No short-term-let listings in ${found.label}.`);
    if (idx.length === 0) throw new ApiError('not_found', `None of the ${found.idx.length} short-term-let listings in ${found.label} match the filters.`);
    const { point } = found;
    const dist = Float64Array.from(idx, (i) => (point ? haversineM(point.lat, point.lng, s.lat[i]!, s.lng[i]!) : NaN));
    const figure = {
      revenue: () => Float64Array.from(idx, (i) => rows.revenue[i]!),
      adr: () => Float64Array.from(idx, (i) => rows.adr[i]!),
      occupancy: () => Float64Array.from(idx, (i) => rows.occupancy[i]!),
      rating: () => Float64Array.from(idx, (i) => rows.rating[i]!),
      distance: () => dist,
    }[query.sort]();
    const order = listingOrder(figure, idx.map((i) => rows.id[i]!), query.sort !== 'distance');
    const pages = Math.ceil(order.length / query.per_page);
    if (query.page > pages) {
      throw new ApiError('invalid_request', `page ${query.page} is past the last page (${pages} pages of ${query.per_page}).`, [{ path: 'query.page', message: `at most ${pages}` }]);
    }
    const page = order.slice((query.page - 1) * query.per_page, query.page * query.per_page);
    return {
      location: found.label,
      sort: query.sort,
      page: query.page,
      per_page: query.per_page,
      total: order.length,
      listings: page.map((k) => {
        const i = idx[k]!;
        const kind = rows.propertyType[i];
        const occ = rows.occupancy[i]!;
        return {
          listing_id: rows.id[i]!,
          listing_type: rows.listingType[i]!,
          property_type: kind === 'house' ? ('house' as const) : kind === 'apartment' ? ('apartment' as const) : null,
          bedrooms: orNull(rows.bedrooms[i]!),
          bathrooms: orNull(rows.bathrooms[i]!),
          accommodates: orNull(rows.accommodates[i]!),
          lat: roundPosition(s.lat[i]!),
          lng: roundPosition(s.lng[i]!),
          adr: Number.isNaN(rows.adr[i]!) ? null : r2(rows.adr[i]!),
          occupancy_pct: Number.isNaN(occ) ? null : Math.round(occ * 1000) / 10,
          revenue_annual: Number.isNaN(rows.revenue[i]!) ? null : Math.round(rows.revenue[i]!),
          rating: orNull(rows.rating[i]!),
          reviews_count: orNull(rows.reviews[i]!),
          host_listings_count: orNull(rows.hostListings[i]!),
          last_scraped: rows.scraped[i]!,
          distance_m: point ? Math.round(dist[k]!) : null,
        };
      }),
      currency: 'GBP' as const,
    };
  },
});
