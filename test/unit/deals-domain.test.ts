import { describe, expect, it } from 'vitest';
import { belowMarketScore, discountPct, grossYieldPct, rankDeals, VALUATION_TYPICAL_ERROR_PCT, yieldScore } from '../../service/domain/deals.ts';
import { crimeCounts, per1000 } from '../../service/domain/crime.ts';

describe('deal scores', () => {
  it('discount and gross yield, to two decimals', () => {
    expect(discountPct(200_000, 170_000)).toBe(15);
    expect(discountPct(300_000, 310_000)).toBe(-3.33);
    expect(grossYieldPct(1_000, 200_000)).toBe(6);
  });

  it('the score is the discount beyond 1.5 × the confidence\'s typical error', () => {
    expect(belowMarketScore(20, 'High')).toBeCloseTo(20 - 1.5 * 5.7, 6);
    expect(belowMarketScore(20, 'Low')).toBeCloseTo(20 - 1.5 * 14.9, 6);
  });

  it('a Low-confidence valuation never ranks above a High one of the same discount, at any discount', () => {
    for (let d = 0; d <= 90; d += 0.5) {
      const ranked = rankDeals([
        { id: 'a-low', score: belowMarketScore(d, 'Low'), tiebreak: d },
        { id: 'b-medium', score: belowMarketScore(d, 'Medium'), tiebreak: d },
        { id: 'c-high', score: belowMarketScore(d, 'High'), tiebreak: d },
      ]);
      expect(ranked.map((x) => x.id)).toEqual(['c-high', 'b-medium', 'a-low']);
    }
    expect(VALUATION_TYPICAL_ERROR_PCT.Low).toBeGreaterThan(VALUATION_TYPICAL_ERROR_PCT.High);
  });

  it('a larger discount on weaker evidence can still rank first when it clears the error by more', () => {
    const ranked = rankDeals([{ id: 'high-12', score: belowMarketScore(12, 'High'), tiebreak: 12 }, { id: 'low-35', score: belowMarketScore(35, 'Low'), tiebreak: 35 }]);
    expect(ranked[0]!.id).toBe('low-35');
  });

  it('a yield counts beyond the rent\'s typical error by source', () => {
    expect(yieldScore(8, 5, 'evidence')).toBeCloseTo(8 * (1 - 0.09) - 5, 6);
    expect(yieldScore(8, 5, 'evidence_thin')).toBeLessThan(yieldScore(8, 5, 'ons_district'));
    expect(yieldScore(8, 5, 'unknown')).toBe(yieldScore(8, 5, 'evidence_thin'));
  });
});

describe('crime counts', () => {
  it('counts hits by category and month; per 1,000 is null without addresses', () => {
    // Categories by index in police.uk's list: 0 ASB, 2 Burglary, 13 Violence.
    const month = [0, 0, 1, 1, 1];
    const type = [0, 2, 2, 13, 255];
    const c = crimeCounts([0, 1, 2, 3, 4], month, type, ['2025-06', '2025-07']);
    expect(c.total).toBe(4); // the unknown category (255) is not counted
    expect(c.by_category.find((x) => x.category === 'Burglary')!.count).toBe(2);
    expect(c.by_month).toEqual([
      expect.objectContaining({ month: '2025-06', total: 2 }),
      expect.objectContaining({ month: '2025-07', total: 2 }),
    ]);
    expect(c.by_month[1]!.by_category['Violence and sexual offences']).toBe(1);
    expect(per1000(5, 0)).toBeNull();
    expect(per1000(3, 7)).toBe(428.6);
  });
});
