import { describe, expect, it } from 'vitest';
import { comparableWeight, rentalConfidence, rentGrowthPerDay, valueRental, type RentComparable } from '../../service/domain/valuation/rental.ts';

const let_ = (rent_pcm: number, distance_m: number, o: Partial<RentComparable> = {}): RentComparable => ({
  rent_pcm, bedrooms: 2, flat: false, distance_m, age_months: 0, same_home: false, floor_area_sqft: null, ...o,
});
const house2 = { bedrooms: 2, flat: false, floor_area_sqft: null };
const ok = (r: ReturnType<typeof valueRental>) => {
  if (r.kind !== 'ok') throw new Error(`expected an estimate, got ${r.reason}`);
  return r;
};

describe('valueRental: expanding radius', () => {
  it('answers at 220 m when five like lets lie within it, with their min, max and mean, ignoring farther ones', () => {
    const lets = [1000, 1100, 1200, 1300, 1400].map((r) => let_(r, 150));
    const r = ok(valueRental(house2, [...lets, let_(5000, 600)]));
    expect(r.estimate).toMatchObject({ search_radius_m: 220, comparable_count: 5, min_rent: 1000, max_rent: 1400, average_rent: 1200 });
  });

  it('widens to 670 m when 220 m holds four, and to 1,300 m when 670 m holds fewer than five', () => {
    const four = [1000, 1000, 1000, 1000].map((r) => let_(r, 100));
    expect(ok(valueRental(house2, [...four, let_(1000, 500)])).estimate.search_radius_m).toBe(670);
    expect(ok(valueRental(house2, [let_(950, 1_250)])).estimate).toMatchObject({ search_radius_m: 1300, comparable_count: 1, monthly_rent: 950, confidence: 'Low' });
  });

  it('uses only lets of the same bedroom group (4 = four or more) and says why when there are none', () => {
    expect(valueRental(house2, [let_(2000, 50, { bedrooms: 3 }), let_(2000, 50, { bedrooms: 1 })])).toEqual({
      kind: 'not_found', reason: 'No whole-property lets of 2-bedroom homes within 1,300 m in the last 24 months.',
    });
    expect(ok(valueRental({ bedrooms: 6, flat: false, floor_area_sqft: null }, [let_(2500, 100, { bedrooms: 4 })])).estimate.monthly_rent).toBe(2500);
    expect(valueRental({ bedrooms: 0, flat: true, floor_area_sqft: null }, [])).toEqual({ kind: 'not_found', reason: 'No whole-property lets of studios within 1,300 m in the last 24 months.' });
  });
});

describe('valueRental: the point estimate', () => {
  it('is the geometric mean of equally weighted lets, to £5', () => {
    // √(1000 × 1210) = 1100.
    expect(ok(valueRental(house2, [let_(1000, 50), let_(1210, 50)])).estimate.monthly_rent).toBe(1100);
  });

  it('brings each let to the valuation date by the growth given, and to the home\'s floor area', () => {
    const g = Math.log(1.1) / 12; // 10% a year
    expect(ok(valueRental(house2, [let_(1000, 50, { age_months: 12 })], g)).estimate.monthly_rent).toBe(1100);
    // A home twice the let's size: 1000 × 2^0.6 = 1515.7; the agreed rent stays the min and max.
    const r = ok(valueRental({ ...house2, floor_area_sqft: 1000 }, [let_(1000, 50, { floor_area_sqft: 500 })]));
    expect(r.estimate).toMatchObject({ monthly_rent: 1515, min_rent: 1000, max_rent: 1000 });
    // The home's own let is not rescaled.
    expect(ok(valueRental({ ...house2, floor_area_sqft: 1000 }, [let_(1000, 0, { floor_area_sqft: 500, same_home: true })])).estimate.monthly_rent).toBe(1000);
  });

  it('weighs a nearer, newer let of the same kind, and the home\'s own let, more', () => {
    expect(comparableWeight(let_(1, 0), house2)).toBe(1);
    expect(comparableWeight(let_(1, 200), house2)).toBe(0.5);
    expect(comparableWeight(let_(1, 0, { age_months: -12 }), house2)).toBe(0.5);
    expect(comparableWeight(let_(1, 0, { flat: true }), house2)).toBe(0.3);
    expect(comparableWeight(let_(1, 0, { same_home: true }), house2)).toBe(3);
  });
});

describe('rentalConfidence', () => {
  it('High at a summed weight of 6, Low at 1,300 m or under 2.5, else Medium', () => {
    expect(rentalConfidence(220, 6)).toBe('High');
    expect(rentalConfidence(670, 6)).toBe('High');
    expect(rentalConfidence(220, 5.9)).toBe('Medium');
    expect(rentalConfidence(670, 2.5)).toBe('Medium');
    expect(rentalConfidence(220, 2.4)).toBe('Low');
    expect(rentalConfidence(1300, 50)).toBe('Low');
  });

  it('reads the weight of the lets that answered', () => {
    expect(ok(valueRental(house2, Array.from({ length: 6 }, () => let_(1000, 0)))).estimate.confidence).toBe('High');
    expect(ok(valueRental(house2, Array.from({ length: 5 }, () => let_(1000, 0)))).estimate.confidence).toBe('Medium');
    // Five lets at 210 m weigh 5 / (1 + 210/200) = 2.44.
    expect(ok(valueRental(house2, Array.from({ length: 5 }, () => let_(1000, 210)))).estimate.confidence).toBe('Low');
  });
});

describe('rentGrowthPerDay', () => {
  it('is the slope of log rent on the date within like groups, whatever their levels', () => {
    const lets = [
      { group: 'a', rent_pcm: 1000, day: 0 }, { group: 'a', rent_pcm: 1000 * Math.exp(0.1), day: 100 },
      { group: 'b', rent_pcm: 3000, day: 50 }, { group: 'b', rent_pcm: 3000 * Math.exp(0.2), day: 250 },
    ];
    expect(rentGrowthPerDay(lets)).toBeCloseTo(0.001, 10);
    // A dearer group let later alone is not growth.
    expect(rentGrowthPerDay([{ group: 'a', rent_pcm: 1000, day: 0 }, { group: 'b', rent_pcm: 3000, day: 300 }])).toBe(0);
  });
});
