import { describe, expect, it } from 'vitest';
import { scoreDeals, type DealEvidence } from '../../service/domain/deals.ts';

// Five for-sale listings; the figures below are worked by hand from docs/sourcing.md's rules.
const listings = [
  { listing_id: 'a', uprn: '1', price: 170_000 }, // valued at 200,000: 15% under
  { listing_id: 'b', uprn: '2', price: 190_000 }, // valued at 200,000: 5% under
  { listing_id: 'c', uprn: null, price: 100_000 }, // no UPRN match
  { listing_id: 'd', uprn: '4', price: 100_000 }, // no evidence
  { listing_id: 'e', uprn: '5', price: 100_000 }, // valued at 100,000 (0%), rent 1,000 pcm: 12% gross
];
const rent = { pcm: 1_000, area: 'BS1 1', source: 'evidence', sample_size: 30 };
const evidence: (DealEvidence | undefined)[] = [
  { value: 200_000, confidence: 'High', method: 'sqft', rent: null, areaYield: null },
  { value: 200_000, confidence: 'Low', method: 'sqft', rent: null, areaYield: null },
  undefined,
  undefined,
  { value: 100_000, confidence: 'Medium', method: 'sqft', rent, areaYield: { pct: 6, sample_size: 12 } },
];
const candidates = listings.map((_, i) => ({ i, d: i * 100 }));
const score = (criteria: Parameters<typeof scoreDeals>[3]) => scoreDeals(candidates, (i) => listings[i]!, (i) => evidence[i], criteria);

describe('scoreDeals', () => {
  it('below_market: only listings at least the minimum discount under their valuation, scored beyond its typical error', () => {
    const { deals, considered } = score({ strategy: 'below_market' });
    expect(considered).toEqual({ for_sale: 5, valued: 3, without_uprn: 1, without_valuation: 1 });
    // 15% − 1.5 × 5.7% (High) = 6.45.
    expect(deals).toEqual([{ id: 'a', i: 0, d: 0, discount: 15, gross: null, score: 6.45, tiebreak: 15 }]);
    // A 5% floor lets b in: 5% − 1.5 × 14.9% (Low) = −17.35; e (0%) is in too: 0 − 1.5 × 7.8 = −11.7.
    expect(score({ strategy: 'below_market', min_discount_pct: 0 }).deals.map((x) => [x.id, x.score])).toEqual([['a', 6.45], ['b', -17.35], ['e', -11.7]]);
    expect(score({ strategy: 'below_market', min_discount_pct: 16 }).deals).toEqual([]);
  });

  it('yield: only listings with a rent whose gross yield beats the floor (the area\'s by default)', () => {
    const { deals, considered } = score({ strategy: 'yield' });
    expect(considered.valued).toBe(3);
    // 1,000 × 12 ÷ 100,000 = 12%; 12 × (1 − 1.5 × 6%) − 6 = 4.92.
    expect(deals).toEqual([{ id: 'e', i: 4, d: 400, discount: 0, gross: 12, score: 4.92, tiebreak: 12 }]);
    expect(score({ strategy: 'yield', min_yield_pct: 12 }).deals).toEqual([]);
    expect(score({ strategy: 'yield', min_yield_pct: 11.99 }).deals.map((x) => x.id)).toEqual(['e']);
  });
});
