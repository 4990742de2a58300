import { DEALS_LOCATION, DealsQuerySchema, DealsSchema } from '../../../schemas/api/listings.ts';
import { belowMarketScore, dealOrder, discountPct, grossYieldPct, VALUATION_TYPICAL_ERROR_PCT, yieldScore } from '../../domain/deals.ts';
import { topK } from '../../domain/top-k.ts';
import { listingsAt, listingView } from '../../location/listings-near.ts';
import { aroundEcho } from '../../location/around.ts';
import { aroundOrNotFound } from '../place.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export const DEFAULT_MIN_DISCOUNT_PCT = 10;

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
  handler: async ({ query, data }) => {
    const set = await data.deals.get().catch(notServedYet('GET /sourcing/deals'));
    if (!set) return notServedYet('GET /sourcing/deals')();
    const place = await aroundOrNotFound(query, DEALS_LOCATION, data);
    const all = set.listings.listings;
    const candidates = listingsAt(set.listings, place).filter(({ i }) => {
      const l = all[i]!;
      return l.channel === 'sale' && l.status === 'available'
        && (query.min_price === undefined || l.price >= query.min_price) && (query.max_price === undefined || l.price <= query.max_price)
        && (query.min_bedrooms === undefined || l.bedrooms >= query.min_bedrooms) && (query.max_bedrooms === undefined || l.bedrooms <= query.max_bedrooms);
    });
    const considered = { for_sale: candidates.length, valued: 0, without_uprn: 0, without_valuation: 0 };
    const deals: { id: string; tiebreak: number; score: number; i: number; d: number | null; discount: number; gross: number | null }[] = [];
    for (const { i, d } of candidates) {
      const l = all[i]!;
      const e = set.evidence[i];
      if (l.uprn === null) { considered.without_uprn++; continue; }
      if (!e) { considered.without_valuation++; continue; }
      considered.valued++;
      const discount = discountPct(e.value, l.price);
      const gross = e.rent ? grossYieldPct(e.rent.pcm, l.price) : null;
      let score: number;
      let tiebreak: number;
      if (query.strategy === 'below_market') {
        if (discount < (query.min_discount_pct ?? DEFAULT_MIN_DISCOUNT_PCT)) continue;
        score = belowMarketScore(discount, e.confidence);
        tiebreak = discount;
      } else {
        if (gross === null || !e.rent) continue;
        const floor = query.min_yield_pct ?? e.areaYield?.pct;
        if (floor === undefined || gross <= floor) continue;
        if (!e.areaYield) continue;
        score = yieldScore(gross, e.areaYield.pct, e.rent.source);
        tiebreak = gross;
      }
      deals.push({ id: l.listing_id, tiebreak, score, i, d, discount, gross });
    }
    // Only the deals up to the page's end are ranked and drawn (a wide radius holds thousands).
    const end = query.page * query.per_page;
    const page = topK(deals, end, dealOrder).slice(end - query.per_page).map(({ i, d, score, discount, gross }) => {
      const e = set.evidence[i]!;
      const { status: _status, ...view } = listingView(all[i]!, d);
      return {
        ...view, score,
        valuation: { value: e.value, confidence: e.confidence, method: e.method, typical_error_pct: VALUATION_TYPICAL_ERROR_PCT[e.confidence] },
        discount_pct: discount,
        rent_estimate_pcm: e.rent?.pcm ?? null,
        rent_evidence: e.rent ? { area: e.rent.area, source: e.rent.source, sample_size: e.rent.sample_size } : null,
        gross_yield_pct: gross,
        area_yield_pct: e.areaYield?.pct ?? null,
        area_yield_sample_size: e.areaYield?.sample_size ?? null,
      };
    });
    return {
      location: aroundEcho(place),
      strategy: query.strategy,
      total: deals.length,
      page: query.page,
      per_page: query.per_page,
      considered,
      deals: page,
      source: { listings_as_of: set.listings.asOf, valuation_as_of: set.valuationAsOf },
    };
  },
});
