import { StrListingsQuerySchema, StrListingsSchema } from '../../../schemas/api/str.ts';
import { passes } from '../../domain/str/market-listings.ts';
import { ApiError } from '../../middleware/errors.ts';
import { locateListings } from '../../str/locate.ts';
import { listingRowView, listingsSorted } from '../../str/listing-rows.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { strCoverage } from '../../domain/coverage.ts';
import { requireCovered } from '../coverage.ts';

export default defineRoute({
  method: 'GET',
  path: '/str/listings',
  operationId: 'getStrListings',
  summary: 'Listing-level short-term-let performance in an area, paged',
  description:
    'The listings behind GET /str/market, with its location forms and filters (a full postcode selects listings within 1 km of its point; a sector or outcode those placed in it). ' +
    'Sorted by `sort` (revenue, adr, occupancy or rating highest first, distance nearest first), paged by `page` and `per_page` (at most 50); a page past the end is a 400. ' +
    'Figures are the last 12 months estimated from the calendar and reviews (docs/str.md); positions rounded to about 100 m. A place the listings source does not cover is a 404 `not_covered`; a covered place with no listing passing the filters is an empty page (`total` 0).',
  tag: 'Short-term lets',
  cost: 3,
  query: StrListingsQuerySchema,
  response: StrListingsSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ query, data }) => {
    const set = await data.strMarket.get().catch(notServedYet('GET /str/listings'));
    const rows = await data.strListingRows.get().catch(notServedYet('GET /str/listings'));
    const found = await locateListings(set, query, data);
    if ('not_found' in found) throw new ApiError('not_found', found.not_found);
    const { s, at } = set.select(found.idx);
    // A place the listings source does not cover is a free 404; a covered one with none is an empty page.
    if (found.idx.length === 0 && found.place.kind !== 'polygon' && (await requireCovered(strCoverage(set.countries()), found.place, data)).length === 0) {
      throw new ApiError('not_found', `No postcode of the build lies in or within 2 km of ${found.place.label}, so which source covers it is not known.`);
    }
    // k of the selection is row found.idx[k] of the build's set (and of `rows`).
    const rnAt = new Map(at.map((i, k) => [i, found.idx[k]!]));
    const rnOf = (i: number) => rnAt.get(i)!;
    const idx = at.filter((i) => passes(s, i, query));
    const order = listingsSorted(rows, s, idx, found.point, query.sort, rnOf);
    const pages = Math.ceil(order.length / query.per_page);
    if (query.page > Math.max(pages, 1)) {
      throw new ApiError('invalid_request', `page ${query.page} is past the last page (${pages} pages of ${query.per_page}).`, [{ path: 'query.page', message: `at most ${pages}` }]);
    }
    const page = order.slice((query.page - 1) * query.per_page, query.page * query.per_page);
    return {
      location_label: found.label,
      sort: query.sort,
      page: query.page,
      per_page: query.per_page,
      total: order.length,
      listings: page.map(({ i, d }) => listingRowView(rows, s, i, d, rnOf(i))),
      currency: 'GBP' as const,
    };
  },
});
