import { describe, expect, it } from 'vitest';
import {
  defaultBathrooms, effectiveComparables, estimateStr, FLAT_SEASONALITY, inferPropertyType, MONTHS, proximity, ridgeIntercept, selectComparables,
  similarity, STR_ESTIMATE, type Seasonality, type StrComparable, type StrSubject,
} from '../../service/domain/str/estimate.ts';
import { haversineM } from '../../lib/geo/points.ts';
import { StrListingIndex } from '../../service/str/listing-index.ts';
import { rng } from '../../etl/synth/prng.ts';

const subject: StrSubject = { bedrooms: 2, bathrooms: 1, property_type: 'apartment', finish_quality: 'average' };

function comp(over: Partial<StrComparable> = {}): StrComparable {
  return {
    id: 'x', distance_m: 100, bedrooms: 2, bathrooms: 1, property_type: 'apartment',
    base_adr: 100, occupancy: 0.6, blocked_share: 0.1, revenue_ltm: 20_000, adr_ltm: 100, ...over,
  };
}
const many = (n: number, f: (i: number) => Partial<StrComparable>) => Array.from({ length: n }, (_, i) => comp({ id: `c${String(i).padStart(4, '0')}`, ...f(i) }));

describe('STR estimate model', () => {
  it('similarity: 1 when identical; 0.4 per bedroom, 0.75 per bathroom, 0.5 other type, 0.75 unknown', () => {
    expect(similarity(subject, comp())).toBe(1);
    expect(similarity(subject, comp({ bedrooms: 3 }))).toBeCloseTo(0.4);
    expect(similarity(subject, comp({ bedrooms: 0 }))).toBeCloseTo(0.16);
    expect(similarity(subject, comp({ bathrooms: 2 }))).toBeCloseTo(0.75);
    expect(similarity(subject, comp({ bathrooms: null }))).toBeCloseTo(0.75);
    expect(similarity(subject, comp({ property_type: 'house' }))).toBeCloseTo(0.5);
    expect(similarity(subject, comp({ property_type: null }))).toBeCloseTo(0.75);
    expect(proximity(0)).toBe(1);
    expect(proximity(750)).toBeCloseTo(0.5);
    expect(proximity(2000)).toBeLessThan(0.13);
    expect(defaultBathrooms(0)).toBe(1);
    expect(defaultBathrooms(1)).toBe(1);
    expect(defaultBathrooms(4)).toBe(3);
  });

  it('ridge regression: recovers an exact line; with no spread in bedrooms the slope is the prior', () => {
    const x1 = [-2, -1, 0, 1, 2, -1, 1], x2 = [0, 1, 0, -1, 1, 0, 0];
    const y = x1.map((a, i) => 4 + 0.3 * a - 0.1 * x2[i]!);
    expect(ridgeIntercept(y, x1, x2, x1.map(() => 1), [0.3, -0.1], 1)).toBeCloseTo(4, 10);
    expect(ridgeIntercept(y, x1, x2, x1.map(() => 1), [0, 0], 1e-9)).toBeCloseTo(4, 6);
    // Every comparable one bedroom larger, log ADR 5: the fit at the subject is 5 − prior slope.
    const ones = [1, 1, 1], zeros = [0, 0, 0];
    expect(ridgeIntercept([5, 5, 5], ones, zeros, [1, 1, 1], [0.2, 0], 3)).toBeCloseTo(4.8, 6);
  });

  it('identical comparables, flat season: their ADR and occupancy, 12 months January first, months sum to the year', () => {
    const e = estimateStr(subject, many(20, () => ({})), FLAT_SEASONALITY, { includeComparables: true });
    expect(e.monthly_breakdown.map((m) => m.month)).toEqual([...MONTHS]);
    expect(e.projected_monthly.adr).toBeCloseTo(100, 6);
    expect(e.projected_annual.occupancy_pct).toBeCloseTo(60, 6);
    // 365 days × 0.9 unblocked × 0.6 × £100
    expect(e.projected_annual.revenue).toBe(Math.round(365 * 0.9 * 0.6 * 100));
    expect(e.monthly_breakdown.reduce((a, m) => a + m.revenue_pcm, 0)).toBeCloseTo(e.projected_annual.revenue, -1);
    expect(e.projected_monthly.revpar).toBeCloseTo(60, 6);
    expect(e.projected_annual.high_season_months).toEqual([]);
    expect(e.projected_annual.low_season_months).toEqual([]); // February's 28 days are 8% below the mean month: not low season
    expect(e.comps).toMatchObject({ listings_sampled: 20, radius_m: 2000, similarity_weight_avg: 1 });
    expect(e.comps.comparables).toHaveLength(20);
    expect(e.comps.comparables![0]).toEqual({
      listing_id: 'c0000', distance_m: 100, bedrooms: 2, bathrooms: 1, property_type: 'apartment', adr: 100, occupancy_pct: 60, revenue_annual: 20_000, similarity_weight: 1,
    });
    expect(estimateStr(subject, many(3, () => ({})), FLAT_SEASONALITY).comps.comparables).toBeUndefined();
  });

  it('seasonality: ADR × price index, occupancy × demand index capped at 95%, high and low seasons from revenue', () => {
    const demand = [0.7, 0.75, 0.9, 1, 1.05, 1.15, 1.3, 1.7, 1.1, 0.95, 0.8, 0.75];
    const adr = demand.map((d) => d ** 0.7);
    const season: Seasonality = { demand, adr };
    const e = estimateStr(subject, many(20, () => ({})), season);
    const aug = e.monthly_breakdown[7]!;
    expect(aug.adr).toBeCloseTo(100 * adr[7]!, 1);
    expect(aug.occupancy_pct).toBe(95); // 0.6 × 1.7 = 1.02, capped
    expect(e.monthly_breakdown[0]!.occupancy_pct).toBeCloseTo(42, 6);
    expect(e.projected_annual.high_season_months).toEqual(['Jun', 'Jul', 'Aug', 'Sep']);
    expect(e.projected_annual.low_season_months).toEqual(['Jan', 'Feb', 'Mar', 'Oct', 'Nov', 'Dec']);
  });

  it('finish quality multiplies ADR by 0.90 … 1.10 and leaves occupancy alone', () => {
    const comps = many(20, (i) => ({ base_adr: 80 + i }));
    const at = (q: StrSubject['finish_quality']) => estimateStr({ ...subject, finish_quality: q }, comps, FLAT_SEASONALITY).projected_monthly;
    const avg = at('average');
    expect(at('below_average').adr / avg.adr).toBeCloseTo(0.9, 3);
    expect(at('above_average').adr / avg.adr).toBeCloseTo(1.05, 3);
    expect(at('very_high').adr / avg.adr).toBeCloseTo(1.1, 3);
    expect(at('very_high').occupancy_pct).toBe(avg.occupancy_pct);
  });

  it('the regression: ADR rises with bedrooms along the comparables\' own slope, similar listings weigh most', () => {
    // Comparables of 1 to 4 bedrooms priced 70 × 1.3^(beds − 1).
    const comps = many(80, (i) => ({ bedrooms: 1 + (i % 4), base_adr: 70 * 1.3 ** (i % 4) }));
    const adr = (b: number) => estimateStr({ ...subject, bedrooms: b }, comps, FLAT_SEASONALITY).projected_monthly.adr;
    // Within 3%: the prior slope (+22% a bedroom) pulls the fitted one (+30%) a little.
    expect(Math.abs(adr(1) / 70 - 1)).toBeLessThan(0.03);
    expect(Math.abs(adr(3) / (70 * 1.69) - 1)).toBeLessThan(0.03);
    // A 6-bedroom house beyond the data: extrapolated along the fitted slope, not the 4-bed price.
    expect(adr(6)).toBeGreaterThan(adr(4) * 1.3);
  });

  it('at most 100 comparables, the most similar and nearest first; confidence from the effective number of comparables', () => {
    const comps = many(300, (i) => ({ distance_m: 10 * i, bedrooms: i % 3 === 0 ? 2 : 3 }));
    const chosen = selectComparables(subject, comps);
    expect(chosen).toHaveLength(STR_ESTIMATE.maxComparables);
    for (let k = 1; k < chosen.length; k++) expect(chosen[k - 1]!.w).toBeGreaterThanOrEqual(chosen[k]!.w);
    const e = estimateStr(subject, comps, FLAT_SEASONALITY);
    expect(e.comps.listings_sampled).toBe(100);
    expect(e.confidence).toBe('High');
    // 4 identical and 8 two bedrooms off (weight 0.16 each): (4 + 1.28)² ÷ (4 + 8 × 0.0256) = 6.63 effective.
    expect(effectiveComparables([1, 1, 1, 1, ...Array(8).fill(0.16)])).toBeCloseTo(6.63, 2);
    expect(estimateStr(subject, many(12, (i) => ({ bedrooms: i < 4 ? 2 : 4 })), FLAT_SEASONALITY).confidence).toBe('Medium');
    expect(estimateStr(subject, many(3, () => ({})), FLAT_SEASONALITY).confidence).toBe('Low');
    // Months from the national prior (no local reviews) or from nothing: one level less.
    expect(estimateStr(subject, many(20, () => ({})), FLAT_SEASONALITY).confidence).toBe('High');
    expect(estimateStr(subject, many(20, () => ({})), { ...FLAT_SEASONALITY, source: 'national_prior' }).confidence).toBe('Medium');
    expect(estimateStr(subject, many(20, () => ({})), { ...FLAT_SEASONALITY, source: 'none' }).confidence).toBe('Medium');
    expect(estimateStr(subject, many(20, () => ({})), { ...FLAT_SEASONALITY, source: 'build_wide' }).confidence).toBe('High');
    expect(estimateStr(subject, many(12, (i) => ({ bedrooms: i < 4 ? 2 : 4 })), { ...FLAT_SEASONALITY, source: 'national_prior' }).confidence).toBe('Low');
    // One identical comparable next door and 60 far, unlike ones: about one effective comparable.
    expect(estimateStr(subject, [comp({ distance_m: 0 }), ...many(60, () => ({ distance_m: 1900, bedrooms: 5, property_type: 'house' }))], FLAT_SEASONALITY).confidence).toBe('Low');
    expect(effectiveComparables([])).toBe(0);
    expect(() => estimateStr(subject, [], FLAT_SEASONALITY)).toThrow();
  });

  it('property type inferred from the nearby listings with as many bedrooms', () => {
    const comps = [
      ...many(5, () => ({ bedrooms: 3, property_type: 'house' })),
      ...many(8, () => ({ bedrooms: 1, property_type: 'apartment' })),
    ];
    expect(inferPropertyType(3, comps)).toBe('house');
    expect(inferPropertyType(1, comps)).toBe('apartment');
    expect(inferPropertyType(2, [])).toBe('apartment');
  });
});

describe('STR listing index', () => {
  // 3,000 listings scattered over ~10 km around Bristol.
  const r = rng(7, 'str-index-test');
  const rows = Array.from({ length: 3000 }, (_, i) => ({
    id: `L${i}`, lat: 51.45 + r.gauss(0, 0.03), lng: -2.59 + r.gauss(0, 0.05), bedrooms: r.int(0, 5), bathrooms: r.chance(0.1) ? null : r.int(1, 3),
    property_type: r.pick(['house', 'apartment', null]), la_code: r.chance(0.7) ? 'E06000023' : 'E06000024', sector: `BS${r.int(1, 9)} ${r.int(1, 9)}`,
    base_adr: 60 + r.int(0, 100), occupancy: r.next(), blocked_share: 0.1, revenue_ltm: 10_000, adr_ltm: 90,
  }));
  const season = [{ la_code: '*', month_of_year: 8, demand_index: 1.5, adr_index: 1.3, source: null }, { la_code: 'E06000023', month_of_year: 1, demand_index: 0.6, adr_index: 0.7, source: null }];
  const index = new StrListingIndex(rows, season);

  it('near: exactly the listings within the radius (great-circle), distances within 0.1%, one left out on request', () => {
    const lat = 51.455, lng = -2.585;
    const h = index.near(lat, lng, 2000);
    const brute = rows.filter((x) => haversineM(lat, lng, x.lat, x.lng) <= 2000).map((x) => x.id).sort();
    const got = Array.from(h.rows, (i) => rows[i]!.id).sort();
    // Equirectangular and great-circle may disagree only for a listing right on the edge.
    expect(Math.abs(got.length - brute.length)).toBeLessThanOrEqual(1);
    expect(got.filter((id) => !brute.includes(id)).length).toBeLessThanOrEqual(1);
    h.rows.forEach((i, j) => expect(Math.abs(h.dist[j]! / haversineM(lat, lng, rows[i]!.lat, rows[i]!.lng) - 1)).toBeLessThan(0.001));
    expect(got.length).toBeGreaterThan(200);
    const left = index.near(lat, lng, 2000, got[0]);
    expect(left.rows.length).toBe(h.rows.length - 1);
  });

  it('top and inferType agree with the model\'s own selection and inference over every hit', () => {
    const h = index.near(51.44, -2.6, 2000);
    const all = index.comparables(h);
    for (const s of [subject, { ...subject, bedrooms: 4, bathrooms: 3, property_type: 'house' as const }]) {
      const viaIndex = index.top(s, h, 100).map((c) => c.id);
      const viaModel = selectComparables(s, all).map((x) => x.c.id);
      expect(new Set(viaIndex)).toEqual(new Set(viaModel));
      expect(estimateStr(s, index.top(s, h, 100), FLAT_SEASONALITY, { includeComparables: true })).toEqual(estimateStr(s, all, FLAT_SEASONALITY, { includeComparables: true }));
    }
    for (const b of [0, 1, 2, 3, 5]) expect(index.inferType(b, h)).toBe(inferPropertyType(b, all));
  });

  it('seasonality: the LA\'s, else build-wide, else flat; LA of the hits by proximity; nearest sector', () => {
    expect(index.seasonality('E06000023').demand[0]).toBe(0.6);
    expect(index.seasonality('E06000023').demand[7]).toBe(1);
    expect(index.seasonality('E99999999').adr[7]).toBe(1.3);
    expect(index.seasonality(null).demand[7]).toBe(1.5);
    expect(new StrListingIndex([], []).seasonality('x')).toEqual({ ...FLAT_SEASONALITY, source: 'none' });
    const h = index.near(51.45, -2.59, 2000);
    expect(index.laOf(h)).toBe('E06000023');
    expect(index.nearestSector(h)).toMatch(/^BS\d \d$/);
    expect(new StrListingIndex([], []).near(51.45, -2.59, 2000).rows.length).toBe(0);
  });
});

describe('estimateAt (ring search)', () => {
  it('gives exactly the estimate of a full 2 km search, dense or sparse', async () => {
    const { estimateAt } = await import('../../service/str/estimator.ts');
    const r = rng(9, 'rings');
    // Dense: 20,000 listings within a few km; sparse: 300.
    for (const [n, sd] of [[20_000, 0.02], [300, 0.02]] as const) {
      const rows = Array.from({ length: n }, (_, i) => ({
        id: `L${i}`, lat: 51.45 + r.gauss(0, sd), lng: -2.59 + r.gauss(0, sd * 1.6), bedrooms: r.int(0, 4), bathrooms: r.int(1, 2),
        property_type: r.pick(['house', 'apartment']), la_code: 'E06000023', sector: 'BS1 4',
        base_adr: 60 + r.int(0, 100), occupancy: r.next(), blocked_share: 0.1, revenue_ltm: 10_000, adr_ltm: 90,
      }));
      const index = new StrListingIndex(rows, []);
      for (let k = 0; k < 10; k++) {
        const lat = 51.45 + r.gauss(0, 0.01), lng = -2.59 + r.gauss(0, 0.016);
        const s: StrSubject = { bedrooms: r.int(0, 4), bathrooms: r.int(1, 2), property_type: r.pick(['house', 'apartment'] as const), finish_quality: 'average' };
        const got = estimateAt(index, { lat, lng, la: 'E06000023' }, { ...s, include_comparables: true });
        const h = index.near(lat, lng, 2000);
        if (h.rows.length === 0) {
          expect(got).toBeUndefined();
          continue;
        }
        const full = estimateStr(s, index.comparables(h), index.seasonality('E06000023'), { includeComparables: true });
        expect(got!.figures).toEqual(full);
      }
    }
  });
});
