import { describe, expect, it } from 'vitest';
import { DIMENSIONS, GRADE, gradeOf, letterOf, percentileOf, type GradeBenchmark } from '../../service/domain/str/market-grade.ts';
import { HISTORY_MONTHS, passes, type MarketListings } from '../../service/domain/str/market-listings.ts';
import { monthText } from '../../schemas/months.ts';
import { countryOf, marketSections, SECTIONS } from '../../service/domain/str/market.ts';
import { StrMarketSet, pointInRing } from '../../service/str/market-set.ts';
import { stagedContext } from '../support/region.ts';
import { letterCounts, marketGrades } from '../support/str-market-grades.ts';

/** A set of `n` listings with flat months: listing i books `booked[i]` of 20 available nights at £100. */
function fixture(opts: { booked: number[]; end?: number[]; beds?: number[]; type?: number[]; tier?: number[]; rating?: number[] }): MarketListings {
  const n = opts.booked.length;
  const M = HISTORY_MONTHS;
  const s: MarketListings = {
    n, lat: new Float64Array(n), lng: new Float64Array(n),
    postcode: Array(n).fill(null), sector: Array(n).fill('AB1 2'), outcode: Array(n).fill('AB1'), country: Array(n).fill('England'),
    type: Uint8Array.from(opts.type ?? Array(n).fill(0)), kind: new Uint8Array(n).fill(2),
    beds: Int16Array.from(opts.beds ?? Array(n).fill(1)), tier: Int8Array.from(opts.tier ?? Array(n).fill(2)),
    ratings: new Float32Array(n * 7).fill(NaN),
    active: new Uint8Array(n).fill(1), blocked: new Uint8Array(n), new30: new Uint8Array(n),
    bookedAhead30: new Float32Array(n).fill(10), openNext30: new Float32Array(n).fill(15), stay: new Float32Array(n).fill(3),
    amenityKeys: ['kitchen', 'wifi'], amenities: new Uint8Array(n * 2),
    endMonth: Int32Array.from(opts.end ?? Array(n).fill(2025 * 12 + 8)),
    months: new Float32Array(n * M * 4),
  };
  for (let i = 0; i < n; i++) {
    s.ratings[i * 7] = opts.rating?.[i] ?? NaN;
    s.amenities[i * 2 + 1] = 1; // wifi
    for (let j = 0; j < M; j++) {
      s.months.set([1, 20, opts.booked[i]!, opts.booked[i]! * 100], (i * M + j) * 4);
    }
  }
  return s;
}

const emptyBench: GradeBenchmark = { areas: [], dims: Object.fromEntries(DIMENSIONS.map((d) => [d, []])) as any, composites: [] };

describe('market aggregation (pure)', () => {
  it('summary and history are ratios of sums; months are YYYY-MM ending at the latest month', () => {
    const s = fixture({ booked: [10, 5] });
    const out: any = marketSections(s, [0, 1], new Set(SECTIONS), emptyBench);
    expect(out.summary).toEqual({ adr: 100, occupancy_pct: 37.5, revpar: 37.5, revenue_pcm: 750, revenue_annual: 9000, active_listings: 2 });
    expect(out.historical).toHaveLength(24);
    expect(out.historical[23].month).toBe('2025-09');
    expect(out.historical[0].month).toBe('2023-10');
    expect(out.historical[23].yoy_revenue_change).toBe(0);
    expect(out.historical[0].yoy_revenue_change).toBeNull(); // no prior year given
    expect(out.amenities).toEqual({ kitchen_pct: 0, wifi_pct: 100 });
    expect(out.demand).toEqual({ booked_nights_30d: 20, available_nights_30d: 30, lead_time_avg_days: null, length_of_stay_avg: 3 });
  });

  it('null, not 0, where there is nothing to average: a group with no booked night has no ADR', () => {
    const s = fixture({ booked: [0, 0, 0, 10], beds: [3, 3, 3, 2] });
    const out: any = marketSections(s, [0, 1, 2, 3], new Set(['by_bedrooms', 'summary'] as const), emptyBench);
    expect(out.by_bedrooms).toEqual([
      { bedrooms: 2, listings: 1, adr: 100, occupancy_pct: 50, revenue_pcm: 1000 },
      { bedrooms: 3, listings: 3, adr: null, occupancy_pct: 0, revenue_pcm: 0 },
    ]);
    const none: any = marketSections(s, [0], new Set(['summary', 'historical'] as const), emptyBench);
    expect(none.summary.adr).toBeNull();
    expect(none.historical[23].adr).toBeNull();
  });

  it('a market too thin to grade says so, with its listing count, instead of a letter', () => {
    const two: any = marketSections(fixture({ booked: [10, 5] }), [0, 1], new Set(['grade'] as const), emptyBench);
    expect(two.grade).toEqual({
      letter: null, score_0_100: null, strongest: [], weakest: [], listings: 2,
      note: `Too thin to grade: 2 active listings, at least ${GRADE.minBenchmarkListings} needed.`,
    });
    const three: any = marketSections(fixture({ booked: [10, 5, 7] }), [0, 1, 2], new Set(['grade'] as const), emptyBench);
    expect(three.grade.letter).not.toBeNull();
    expect(three.grade.listings).toBe(3);
  });

  it('country: the selected listings\' majority from their postcodes (a border polygon), never a default', () => {
    const country = ['Wales', 'Wales', 'England', 'Scotland', null, null];
    expect(countryOf(country, [0, 1])).toBe('Wales');
    expect(countryOf(country, [3])).toBe('Scotland');
    expect(countryOf(country, [0, 1, 2, 4, 5])).toBe('Wales'); // across the border: two Welsh, one English
    expect(countryOf(country, [2, 3])).toBe('England'); // a tie: alphabetical
    expect(countryOf(country, [4, 5])).toBeUndefined(); // no postcode data: unknown, not England
  });

  it('a listing whose history ends a month earlier lands in the right months', () => {
    const s = fixture({ booked: [10, 10], end: [2025 * 12 + 8, 2025 * 12 + 7] });
    const out: any = marketSections(s, [0, 1], new Set(['historical'] as const), emptyBench);
    expect(out.historical[23].revenue_pcm).toBe(1000); // only listing 0 has September 2025
    expect(out.historical[22].revenue_pcm).toBe(1000);
  });

  it('the prior year gives the first year its year-on-year change', () => {
    const s = fixture({ booked: [10] });
    s.prior = new Float32Array(24).map((_, q) => (q % 2 === 0 ? 1 : 500));
    const out: any = marketSections(s, [0], new Set(['historical'] as const), emptyBench);
    expect(out.historical[0].yoy_revenue_change).toBe(1);
    expect(out.historical[12].yoy_revenue_change).toBe(0);
  });

  it('breakdowns count active listings per group', () => {
    const s = fixture({ booked: [10, 5, 8], beds: [1, 2, -1], type: [0, 1, 0], tier: [0, 4, -1] });
    const out: any = marketSections(s, [0, 1, 2], new Set(SECTIONS), emptyBench);
    expect(out.by_bedrooms.map((x: any) => [x.bedrooms, x.listings])).toEqual([[1, 1], [2, 1]]);
    expect(out.by_listing_type.map((x: any) => [x.listing_type, x.listings])).toEqual([['entire_home', 2], ['private_room', 1]]);
    expect(out.by_price_tier.map((x: any) => [x.tier, x.listings])).toEqual([['Budget', 1], ['Luxury', 1]]);
  });

  it('filters: a filter on a value the listing lacks excludes it', () => {
    const s = fixture({ booked: [1, 1, 1], beds: [1, 3, -1], tier: [0, 4, -1], rating: [4.9, 4.2, NaN] });
    const sel = (f: Parameters<typeof passes>[2]) => [0, 1, 2].filter((i) => passes(s, i, f));
    expect(sel({ bedrooms: 3 })).toEqual([1]);
    expect(sel({ min_bedrooms: 2 })).toEqual([1]);
    expect(sel({ max_bedrooms: 2 })).toEqual([0]);
    expect(sel({ min_rating: 4.5 })).toEqual([0]);
    expect(sel({ price_tier: ['Budget', 'Luxury'] })).toEqual([0, 1]);
    expect(sel({ listing_type: 'private_room' })).toEqual([]);
    expect(sel({ property_type: 'apartment' })).toEqual([0, 1, 2]);
  });
});

describe('market grade (pure)', () => {
  it('percentiles count ties half', () => {
    expect(percentileOf([1, 2, 3, 4], 0)).toBe(0);
    expect(percentileOf([1, 2, 3, 4], 5)).toBe(100);
    expect(percentileOf([1, 2, 2, 4], 2)).toBe(50);
    expect(percentileOf([], 3)).toBe(50);
  });

  it('letters by score band', () => {
    expect(GRADE.bands.map(([l]) => l)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect([99, 85, 84.9, 70, 50, 30, 15, 14.9, 0].map(letterOf)).toEqual(['A', 'A', 'B', 'B', 'C', 'D', 'E', 'F', 'F']);
  });

  it('strongest and weakest are the dimensions of highest and lowest percentile', () => {
    const dims = Object.fromEntries(DIMENSIONS.map((d) => [d, [0, 1, 2, 3]])) as any;
    const bench: GradeBenchmark = { areas: ['a', 'b', 'c', 'd'], dims, composites: [10, 40, 60, 90] };
    const g = gradeOf(bench, { revenue: 5, occupancy: 5, revenue_growth: 2.5, stability: 1.5, supply_headroom: -1, guest_rating: null });
    expect(g.strongest).toEqual(['revenue', 'occupancy']);
    expect(g.weakest).toEqual(['supply_headroom', 'stability']);
    // composite mean(100, 100, 75, 50, 0) = 65, above 3 of 4 benchmark composites
    expect(g.score_0_100).toBe(75);
    expect(g.letter).toBe('B');
  });

  it('point in polygon (even-odd), closed implicitly', () => {
    const square: [number, number][] = [[0, 0], [1, 0], [1, 1], [0, 1]];
    expect(pointInRing(0.5, 0.5, square)).toBe(true);
    expect(pointInRing(1.5, 0.5, square)).toBe(false);
    expect(pointInRing(0.9, 0.2, [[0, 0], [1, 0], [1, 1]])).toBe(true);
    expect(pointInRing(0.2, 0.9, [[0, 0], [1, 0], [1, 1]])).toBe(false);
  });

  it('on the synthetic region every letter is used across the benchmark areas', async () => {
    const ctx = await stagedContext(12_000, 11);
    const { set, grades } = await marketGrades(ctx.conn);
    expect(set).toBeInstanceOf(StrMarketSet);
    expect(grades.length).toBeGreaterThanOrEqual(7);
    const letters = letterCounts(grades);
    console.log(`grades over ${grades.length} sectors of a 12,000-address region:`, JSON.stringify(letters));
    for (const l of ['A', 'B', 'C', 'D', 'E', 'F'] as const) expect(letters[l]).toBeGreaterThan(0);
    expect(letters.A).toBeLessThan(grades.length / 2);
    for (const g of grades) {
      expect(g.grade.score_0_100).toBeGreaterThanOrEqual(0);
      expect(g.grade.score_0_100).toBeLessThanOrEqual(100);
      expect(g.grade.strongest.length).toBe(2);
      for (const d of g.grade.strongest) expect(g.grade.weakest).not.toContain(d);
    }
    ctx.conn.closeSync();
  }, 120_000);
});
