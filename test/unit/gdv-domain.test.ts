import { describe, expect, it } from 'vitest';
import { evidenceConfidence, expandingEvidence, gdv, MIN_NEW_BUILD_SALES, MIN_RESALES, type NearSale } from '../../service/domain/gdv.ts';

const sale = (d: number, new_build: boolean, gbp_sqft: number): NearSale => ({ d, new_build, gbp_sqft });
const withinOf = (sales: NearSale[]) => {
  const asked: number[] = [];
  return { asked, within: (r: number) => (asked.push(r), sales.filter((s) => s.d <= r)) };
};
const many = (n: number, d: number, nb: boolean, gbp: number) => Array.from({ length: n }, () => sale(d, nb, gbp));

describe('GDV evidence', () => {
  it('the smallest radius with enough new-build sales wins, searching no further', () => {
    const w = withinOf([sale(100, true, 400), sale(300, true, 420), ...many(MIN_NEW_BUILD_SALES - 2, 800, true, 450), ...many(30, 1500, true, 400), ...many(50, 200, false, 380)]);
    const e = expandingEvidence('flat', w.within, 1.08)!;
    expect(e).toMatchObject({ basis: 'new_build', radius_m: 1000, count: MIN_NEW_BUILD_SALES, gbp_sqft: 450, new_build_premium: null });
    expect(w.asked).toEqual([500, 1000]);
    expect(evidenceConfidence(e)).toBe('High');
    expect(evidenceConfidence({ ...e, radius_m: 5000 })).toBe('Medium');
  });
  it('no new builds within 10 km: resale £/sq ft × premium, Low', () => {
    const w = withinOf([...many(3, 9000, true, 500), ...many(4, 300, false, 300), ...many(MIN_RESALES, 900, false, 310), sale(20000, true, 999)]);
    const e = expandingEvidence('house', w.within, 1.1)!;
    expect(e).toMatchObject({ basis: 'resale_with_premium', radius_m: 1000, count: MIN_RESALES + 4, median_gbp_sqft: 310, new_build_premium: 1.1 });
    expect(e.gbp_sqft).toBeCloseTo(341, 6);
    expect(evidenceConfidence(e)).toBe('Low');
  });
  it('nothing near enough: undefined', () => {
    expect(expandingEvidence('house', withinOf(many(3, 9000, false, 300)).within, 1.08)).toBeUndefined();
  });
  it('lines: £/sq ft × finish × area to the £1,000, × count; confidence is the weakest kind', () => {
    const flat = expandingEvidence('flat', withinOf(many(10, 100, true, 400)).within, 1.08)!;
    const house = expandingEvidence('house', withinOf(many(40, 100, false, 300)).within, 1.1)!;
    const r = gdv(
      [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 10 }, { property_type: 'house', bedrooms: 3, floor_area_sqft: 1000, count: 2 }],
      new Map([['flat', flat], ['house', house]]),
      'above_average',
    );
    expect(r.lines[0]).toMatchObject({ gbp_per_sqft: 420, value_per_unit: 294_000, subtotal: 2_940_000 });
    expect(r.lines[1]).toMatchObject({ gbp_per_sqft: 346.5, value_per_unit: 347_000, subtotal: 694_000 });
    expect(r.gdv).toBe(3_634_000);
    expect(r.confidence).toBe('Low');
    expect(r.evidence.map((e) => e.basis)).toEqual(['new_build', 'resale_with_premium']);
  });
});
