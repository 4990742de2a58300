import { describe, expect, it } from 'vitest';
import { RENTAL_MODEL, comparableWeight, predictedRentalError, rentalConfidence, rentGrowthPerDay, valueRental, type RentalSignals, type RentComparable } from '../../service/domain/valuation-models/rental.ts';

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
    // A home twice the let's size: 1000 × 2^0.6 = 1515.7; the range is of the adjusted rents
    // (floor and ceiling to the pound), so it brackets the estimate.
    const r = ok(valueRental({ ...house2, floor_area_sqft: 1000 }, [let_(1000, 50, { floor_area_sqft: 500 })]));
    expect(r.estimate).toMatchObject({ monthly_rent: 1515, min_rent: 1515, max_rent: 1516, average_rent: 1516 });
    // Two lets, one a year old at 10% a year and one half the home's size: 1100 and 1515.7.
    const two = ok(valueRental({ ...house2, floor_area_sqft: 1000 }, [let_(1000, 50, { age_months: 12, floor_area_sqft: 1000 }), let_(1000, 50, { floor_area_sqft: 500 })], g));
    expect(two.estimate).toMatchObject({ min_rent: 1100, max_rent: 1516, average_rent: 1308 });
    expect(two.estimate.monthly_rent).toBeGreaterThanOrEqual(1100);
    expect(two.estimate.monthly_rent).toBeLessThanOrEqual(1516);
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
  // Expected predictions computed by hand from the coefficients documented in docs/valuation-rental-hmo.md:
  // 0.1119 − 0.006892 ln W − 0.02061 own + 0.04362 SD − 0.001677 ln n_eff − 0.005586 [670 m]
  // − 0.0003416 [1,300 m] + 0.0006184 ln(nearest + 10) + 0.00001664 age + 0.0004914 ln lets.
  const sig = (o: Partial<RentalSignals>): RentalSignals => ({ weight: 1, radius: 220, lets: 1, sd: 0, n_eff: 1, nearest_m: 0, same_home: 0, age_months: 0, ...o });

  it('predicts the error from the signals of the lets used', () => {
    // ln e = 1: 0.1119 − 0.006892 − 0.02061 + 0.0006184 × ln 10 = 0.085822.
    expect(predictedRentalError(sig({ weight: Math.E, same_home: 1 }))).toBeCloseTo(0.085822, 6);
    // W 10 at 670 m, 20 lets, SD 0.2, n_eff 8, nearest 50 m, 3 months old: 0.099735.
    expect(predictedRentalError(sig({ weight: 10, radius: 670, lets: 20, sd: 0.2, n_eff: 8, nearest_m: 50, age_months: 3 }))).toBeCloseTo(0.099735, 6);
    // W 1, 5 lets, SD 0.3, n_eff 2, nearest 150 m, 6 months old: 0.127853.
    expect(predictedRentalError(sig({ weight: 1, lets: 5, sd: 0.3, n_eff: 2, nearest_m: 150, age_months: 6 }))).toBeCloseTo(0.127853, 6);
  });

  it('High at a predicted error of at most 0.08848, Low above 0.1081, else Medium', () => {
    expect(rentalConfidence(sig({ weight: Math.E, same_home: 1 }))).toBe('High');
    expect(rentalConfidence(sig({ weight: 10, radius: 670, lets: 20, sd: 0.2, n_eff: 8, nearest_m: 50, age_months: 3 }))).toBe('Medium');
    expect(rentalConfidence(sig({ weight: 1, lets: 5, sd: 0.3, n_eff: 2, nearest_m: 150, age_months: 6 }))).toBe('Low');
    // The thresholds alone: a rule predicting a constant.
    const zero = Object.fromEntries(Object.keys(RENTAL_MODEL.confidence.coefficients).map((k) => [k, 0])) as typeof RENTAL_MODEL.confidence.coefficients;
    const at = (intercept: number) => rentalConfidence(sig({}), { ...RENTAL_MODEL, confidence: { ...RENTAL_MODEL.confidence, coefficients: { ...zero, intercept } } });
    expect([at(0.08848), at(0.0885), at(0.1081), at(0.10811)]).toEqual(['High', 'Medium', 'Medium', 'Low']);
  });

  it('reads the signals of the lets that answered', () => {
    // Six like lets next door, this month, the same rent: W 6, SD 0, n_eff 6, nearest 0 m:
    // 0.1119 − (0.006892 + 0.001677 − 0.0004914) ln 6 + 0.0006184 ln 10 = 0.098851, Medium.
    const six = ok(valueRental(house2, Array.from({ length: 6 }, () => let_(1000, 0))));
    expect(six.signals).toEqual({ weight: 6, radius: 220, lets: 6, sd: 0, n_eff: 6, nearest_m: 0, same_home: 0, age_months: 0 });
    expect(six.estimate.confidence).toBe('Medium');
    // Five of them and a let of the home itself (weight 3): W 8, n_eff 64/14, own let: 0.076714, High.
    const own = ok(valueRental(house2, [...Array.from({ length: 5 }, () => let_(1000, 0)), let_(1000, 0, { same_home: true })]));
    expect(own.signals.n_eff).toBeCloseTo(64 / 14, 12);
    expect(own.estimate.confidence).toBe('High');
    // Five next door, three at £1,000 and two at £2,000: SD of the logs ln 2 × √(0.4 × 0.6) = 0.33957, 0.115136, Low.
    const spread = ok(valueRental(house2, [1000, 1000, 1000, 2000, 2000].map((r) => let_(r, 0))));
    expect(spread.signals.sd).toBeCloseTo(Math.log(2) * Math.sqrt(0.24), 12);
    expect(spread.estimate.confidence).toBe('Low');
    // One let at 1,250 m (1,300 m radius, W 0.138): 0.129626, Low.
    expect(ok(valueRental(house2, [let_(950, 1_250)])).estimate.confidence).toBe('Low');
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
