import { VALUATION_TYPICAL_ERROR_PCT, type ScoredDeal } from '../domain/deals.ts';
import type { Around } from './around.ts';
import type { DealsSet } from './deals-set.ts';
import { listingView } from './listings-near.ts';
import type { Listing } from './sets.ts';

/** Price and bedroom bounds of a deals query (each optional, inclusive). */
export interface ListingBounds { min_price?: number | undefined; max_price?: number | undefined; min_bedrooms?: number | undefined; max_bedrooms?: number | undefined }

/** The available for-sale listings the place selects within the bounds, with their distances. */
export function forSaleAt(set: DealsSet, place: Around, q: ListingBounds): Array<{ l: Listing; d: number | null }> {
  return set.listings.at(place, {
    channel: 'sale', status: 'available', min_price: q.min_price, max_price: q.max_price, min_bedrooms: q.min_bedrooms, max_bedrooms: q.max_bedrooms,
  });
}

/** A scored deal as the deals answer shows it: the listing (`l`, the deal's candidate), its score and its evidence. */
export function dealView(set: DealsSet, l: Listing, { d, score, discount, gross }: ScoredDeal) {
  const e = set.evidenceOf(l)!;
  const { status: _status, ...view } = listingView(l, d);
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
}
