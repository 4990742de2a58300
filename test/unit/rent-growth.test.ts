import { describe, expect, it } from 'vitest';
import { seededRandom as rng } from '../support/chaos.ts';
import { PooledSlope, RentLetsSummary, letDay, rentLetsSummary, type GrowthLet } from '../../lib/valuation/rent-growth.ts';

/** The pooled within-group slope by the textbook two passes: group means first, then the centred sums. */
function twoPassSlope(rows: { g: string; x: number; y: number }[]): number {
  const mean = new Map<string, { n: number; x: number; y: number }>();
  for (const r of rows) {
    const m = mean.get(r.g) ?? { n: 0, x: 0, y: 0 };
    m.n++; m.x += r.x; m.y += r.y;
    mean.set(r.g, m);
  }
  let sxy = 0, sxx = 0;
  for (const r of rows) {
    const m = mean.get(r.g)!;
    sxy += (r.x - m.x / m.n) * (r.y - m.y / m.n);
    sxx += (r.x - m.x / m.n) ** 2;
  }
  return sxx > 0 ? sxy / sxx : 0;
}

describe('PooledSlope (one pass)', () => {
  it('is the two-pass pooled slope over 20,000 rows in 300 groups of different levels', () => {
    const r = rng(46);
    const rows = Array.from({ length: 20_000 }, () => {
      const g = Math.floor(r() * 300);
      const x = 19_000 + Math.floor(r() * 1500); // let days, 2022-2026
      return { g: `g${g}`, x, y: Math.log(500 + g * 20) + 0.0002 * x + (r() - 0.5) * 0.3 };
    });
    const s = new PooledSlope();
    for (const row of rows) s.add(row.g, row.x, row.y);
    expect(s.slope()).toBeCloseTo(twoPassSlope(rows), 12);
    expect(s.slope()).toBeCloseTo(0.0002, 4); // the slope the rows were made with
  });

  it('is 0 with no rows, one row, or groups of one date each', () => {
    expect(new PooledSlope().slope()).toBe(0);
    const one = new PooledSlope();
    one.add('a', 5, 1);
    expect(one.slope()).toBe(0);
    const apart = new PooledSlope();
    apart.add('a', 0, Math.log(1000));
    apart.add('a', 0, Math.log(1200));
    apart.add('b', 300, Math.log(3000));
    expect(apart.slope()).toBe(0); // a dearer group let later is not growth
  });
});

describe('rentLetsSummary', () => {
  it('is the latest let date and 30.44 × the slope of log rent on the day within sector, bedroom group (4+ as one) and kind', () => {
    const lets: GrowthLet[] = [
      { sector: 'BS1 1', property_type: 'flat', bedrooms: 1, rent_pcm: 1000, let_date: '2024-01-01' },
      { sector: 'BS1 1', property_type: 'flat', bedrooms: 1, rent_pcm: 1100, let_date: '2024-07-01' },
      // Another group: a house with five and one with four bedrooms are alike (4+).
      { sector: 'BS1 1', property_type: 'house', bedrooms: 5, rent_pcm: 2000, let_date: '2024-03-01' },
      { sector: 'BS1 1', property_type: 'house', bedrooms: 4, rent_pcm: 2400, let_date: '2025-03-01' },
      // Alone in its group: no growth of its own, and it is the latest.
      { sector: null, property_type: 'flat', bedrooms: 2, rent_pcm: 9000, let_date: '2025-06-30' },
    ];
    const rows = lets.map((l) => ({ g: `${l.sector}|${Math.min(4, l.bedrooms)}|${l.property_type === 'flat'}`, x: letDay(l.let_date), y: Math.log(l.rent_pcm) }));
    const { asOf, growthPerMonth } = rentLetsSummary(lets);
    expect(asOf).toBe('2025-06-30');
    // Two groups of two: the pooled slope is Σ dx·dy / Σ dx² over each pair's half-differences.
    const d1 = [letDay('2024-07-01') - letDay('2024-01-01'), Math.log(1.1)];
    const d2 = [letDay('2025-03-01') - letDay('2024-03-01'), Math.log(1.2)];
    expect(growthPerMonth).toBeCloseTo((30.44 * (d1[0]! * d1[1]! + d2[0]! * d2[1]!)) / (d1[0]! ** 2 + d2[0]! ** 2), 12);
    expect(growthPerMonth).toBeCloseTo(30.44 * twoPassSlope(rows), 12);
    // A let at a time gives the same double as the whole list.
    const folded = new RentLetsSummary();
    for (const l of lets) folded.add(l);
    expect(folded.result()).toEqual({ asOf, growthPerMonth });
  });

  it('without lets: no as-of and no growth', () => {
    expect(rentLetsSummary([])).toEqual({ asOf: '', growthPerMonth: 0 });
  });
});
