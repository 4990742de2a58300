import { DEALS_LOCATION, DealsQuerySchema, DealsSchema } from '../../../schemas/api/listings.ts';
import { dealOrder, scoreDeals } from '../../domain/deals.ts';
import { topK } from '../../domain/top-k.ts';
import { dealView, forSaleAt } from '../../location/deals-near.ts';
import { aroundEcho } from '../../location/around.ts';
import { aroundOrNotFound } from '../place.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { requireCovered } from '../coverage.ts';

export default defineRoute({
  method: 'GET',
  path: '/sourcing/deals',
  operationId: 'getSourcingDeals',
  summary: 'Listings priced below the valuation or above the area yield',
  description:
    'Available for-sale listings at a location (radius default 2,000 m, at most 10,000, or an outcode) with their evidence. ' +
    '`strategy=below_market`: asking price at least `min_discount_pct` (default 10) under the sale valuation of the matched UPRN; ' +
    '`strategy=yield`: gross yield (area rent for the bedrooms × 12 ÷ price) above `min_yield_pct`, or above the area\'s gross yield when not given. ' +
    'Ranked by `score`, the strength of the evidence: the discount beyond the valuation\'s typical error (or the yield beyond the rent\'s), so a ' +
    'Low-confidence valuation never outranks a High one of the same discount (docs/sourcing.md). Listings without a UPRN match or a valuation are counted in `considered`, not ranked.',
  tag: 'Listings',
  cost: 5,
  query: DealsQuerySchema,
  response: DealsSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ query, data }) => {
    const set = await data.deals.get().catch(notServedYet('GET /sourcing/deals'));
    if (!set) return notServedYet('GET /sourcing/deals')();
    const place = await aroundOrNotFound(query, DEALS_LOCATION, data);
    await requireCovered('price_paid', place, data); // deals are priced against sale valuations and yields
    const found = forSaleAt(set, place, query);
    const { deals, considered } = scoreDeals(found.map(({ d }, i) => ({ i, d })), (i) => found[i]!.l, (i) => set.evidenceOf(found[i]!.l), query);
    // Only the deals up to the page's end are ranked and drawn (a wide radius holds thousands).
    const end = query.page * query.per_page;
    return {
      location: aroundEcho(place),
      strategy: query.strategy,
      total: deals.length,
      page: query.page,
      per_page: query.per_page,
      considered,
      deals: topK(deals, end, dealOrder).slice(end - query.per_page).map((deal) => dealView(set, found[deal.i]!.l, deal)),
      source: { listings_as_of: set.listings.asOf, valuation_as_of: set.valuationAsOf },
    };
  },
});
