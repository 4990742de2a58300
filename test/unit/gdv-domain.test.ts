import { describe, expect, it } from 'vitest';
import { chooseEvidence, evidenceConfidence, gdv, MIN_NEW_BUILD_SALES, type Ring } from '../../service/domain/gdv.ts';

const ring = (radius_m: number, new_build: boolean, n: number, median_gbp_sqft: number): Ring => ({ radius_m, new_build, n, median_gbp_sqft });

describe('GDV evidence', () => {
  it('the smallest radius with enough new-build sales wins', () => {
    const e = chooseEvidence('flat', [ring(500, true, 2, 500), ring(1000, true, MIN_NEW_BUILD_SALES, 450), ring(2000, true, 30, 400), ring(500, false, 50, 380)], 1.08)!;
    expect(e).toMatchObject({ basis: 'new_build', radius_m: 1000, count: MIN_NEW_BUILD_SALES, gbp_sqft: 450, new_build_premium: null });
    expect(evidenceConfidence(e)).toBe('High');
    expect(evidenceConfidence({ ...e, radius_m: 5000 })).toBe('Medium');
  });
  it('no new builds within 10 km: resale £/sq ft × premium, Low', () => {
    const e = chooseEvidence('house', [ring(10000, true, 3, 500), ring(500, false, 4, 300), ring(1000, false, 12, 310)], 1.1)!;
    expect(e).toMatchObject({ basis: 'resale_with_premium', radius_m: 1000, count: 12, median_gbp_sqft: 310, new_build_premium: 1.1 });
    expect(e.gbp_sqft).toBeCloseTo(341, 6);
    expect(evidenceConfidence(e)).toBe('Low');
  });
  it('nothing near enough: undefined', () => {
    expect(chooseEvidence('house', [ring(10000, false, 3, 300)], 1.08)).toBeUndefined();
  });
  it('lines: £/sq ft × finish × area to the £1,000, × count; confidence is the weakest kind', () => {
    const flat = chooseEvidence('flat', [ring(500, true, 10, 400)], 1.08)!;
    const house = chooseEvidence('house', [ring(500, false, 40, 300)], 1.1)!;
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

describe('rings of near sales', () => {
  it('count and median within each radius, new build and resale apart', async () => {
    const { ringsOf } = await import('../../service/domain/gdv.ts');
    const sales = [
      { d: 100, new_build: true, gbp_sqft: 400 }, { d: 800, new_build: true, gbp_sqft: 500 }, { d: 900, new_build: false, gbp_sqft: 300 },
      { d: 4000, new_build: true, gbp_sqft: 600 }, { d: 12000, new_build: true, gbp_sqft: 900 },
    ];
    expect(ringsOf(sales, true)).toEqual([
      { radius_m: 500, new_build: true, n: 1, median_gbp_sqft: 400 },
      { radius_m: 1000, new_build: true, n: 2, median_gbp_sqft: 450 },
      { radius_m: 2000, new_build: true, n: 2, median_gbp_sqft: 450 },
      { radius_m: 5000, new_build: true, n: 3, median_gbp_sqft: 500 },
      { radius_m: 10000, new_build: true, n: 3, median_gbp_sqft: 500 },
    ]);
    expect(ringsOf(sales, false).map((r) => r.radius_m)).toEqual([1000, 2000, 5000, 10000]);
  });
});
