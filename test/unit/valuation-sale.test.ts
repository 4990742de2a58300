import { describe, expect, it } from 'vitest';
import {
  IndexLookup, SALE_MODEL, SaleEvidence, UNKNOWN_TYPE, ageCode, roundValue, saleBounds, typeCode, valueSale,
  type AreaIndex, type EvidenceColumns, type SaleSubject,
} from '../../service/domain/valuation-models/sale.ts';

const T = 24;
/** Sector S1 (enough sales) grows 1% a month; outcode O1 0.5%; district D1 flat. */
function index(): AreaIndex {
  const series = new Map<string, Float64Array>();
  const enough = new Map<string, Uint8Array>();
  const add = (key: string, step: number, ok: boolean) => {
    series.set(key, Float64Array.from({ length: T }, (_, t) => t * step));
    enough.set(key, new Uint8Array(T).fill(ok ? 1 : 0));
  };
  add('sector:S1', 0.01, true);
  add('sector:S2', 0.02, false);
  add('outcode:O1', 0.005, true);
  add('district:D1', 0, true);
  return { start: 1000, series, enough };
}
const path = (sector: string) => ({ sector, outcode: 'O1', district: 'D1', country: 'England' });
const now = 1000 + T - 1;

/** A street of sold semis 10 m apart, each worth £300/sq ft × area^0.8 scaling, sold a year ago. */
function street(n: number, withArea = true): EvidenceColumns {
  const lookup = new IndexLookup(index(), now);
  const area = Float64Array.from({ length: n }, (_, i) => 800 + 20 * (i % 10));
  const logValue = Float64Array.from(area, (a) => Math.log(300 * 1000 ** 0.2 * a ** 0.8));
  // Recorded as sold 12 months before now at the then price: brought back to today they match.
  for (let i = 0; i < n; i++) logValue[i] = logValue[i]! - 0.12 + lookup.logGrowth(path('S1'), now - 12)!;
  return {
    uprn: Float64Array.from({ length: n }, (_, i) => 1 + i), x: Float64Array.from({ length: n }, (_, i) => 10 * i), y: new Float64Array(n),
    type: new Uint8Array(n).fill(1), areaSqft: withArea ? area : new Float64Array(n).fill(NaN), logValue,
    ageMonths: new Int32Array(n).fill(12), group: new Int32Array(n), age: new Uint8Array(n).fill(UNKNOWN_TYPE), latest: new Uint8Array(n).fill(1), postcode: new Int32Array(n),
  };
}
const subject = (o: Partial<SaleSubject>): SaleSubject => ({
  uprn: 999, x: 55, y: 0, type: 1, areaSqft: null, age: UNKNOWN_TYPE, postcode: 0, path: path('S1'), lastSale: null, ...o,
});

describe('IndexLookup', () => {
  it('uses the most local area with enough sales at the valuation month', () => {
    const l = new IndexLookup(index(), now);
    expect(l.logGrowth(path('S1'), now - 10)).toBeCloseTo(0.1, 10);
    // S2 has no enough_sales: its outcode's series.
    expect(l.logGrowth(path('S2'), now - 10)).toBeCloseTo(0.05, 10);
    // Months before the series start clamp to its first month.
    expect(l.logGrowth(path('S1'), 0)).toBeCloseTo(0.23, 10);
    expect(l.logGrowth({ sector: null, outcode: null, district: null, country: 'Scotland' }, now - 1)).toBeNull();
  });
});

describe('valueSale cascade', () => {
  const lookup = new IndexLookup(index(), now);
  const ev = new SaleEvidence(street(40), SALE_MODEL);

  it('Medium: floor area × the local £ per sq ft when the home never sold', () => {
    const e = valueSale(subject({ areaSqft: 1000 }), lookup, ev);
    expect(e).toMatchObject({ confidence: 'Medium', method: 'sqft_estimate' });
    if (e.value === null) throw new Error('no value');
    expect(e.value).toBeGreaterThan(0.97 * 300_000);
    expect(e.value).toBeLessThan(1.03 * 300_000);
  });

  it('High: the last sale brought to today, shrunk half-way to the local evidence', () => {
    // Sold 12 months ago at a price that brought to today is 10% above the local level.
    const local = valueSale(subject({ areaSqft: 1000 }), lookup, ev).log!;
    const own = local + 0.1;
    const price = Math.exp(own - 0.12);
    const e = valueSale(subject({ areaSqft: 1000, lastSale: { price, month: now - 12 } }), lookup, ev);
    expect(e).toMatchObject({ confidence: 'High', method: 'last_sold_growth' });
    expect(e.log).toBeCloseTo(local + 0.05, 6);
    // A sale far off the local level (0.8 log) gets a weight of 0.5 × 0.4 / 0.8.
    const far = valueSale(subject({ areaSqft: 1000, lastSale: { price: Math.exp(local + 0.8 - 0.12), month: now - 12 } }), lookup, ev);
    expect(far.log).toBeCloseTo(local + 0.8 * 0.25, 6);
  });

  it('High with only comparables (no floor area) is the indexed last sale alone: that anchor earns no weight on real repeat sales', () => {
    const comps = new SaleEvidence(street(40, false), SALE_MODEL);
    const price = 200_000;
    const e = valueSale(subject({ lastSale: { price, month: now - 12 } }), lookup, comps);
    // Own sale × the sector's 12 months of 1% a month; the street's comparables (about £300k) pull nothing.
    expect(e).toMatchObject({ confidence: 'High', method: 'last_sold_growth', value: roundValue(price * Math.exp(0.12)) });
    expect(e.log).toBeCloseTo(Math.log(price) + 0.12, 10);
    // However far the own sale is from the comparables (here ×3), no shrink towards them.
    const far = valueSale(subject({ lastSale: { price: 3 * price, month: now - 12 } }), lookup, comps);
    expect(far.log).toBeCloseTo(Math.log(3 * price) + 0.12, 10);
    // With a floor area the £/sq ft anchor still takes half (its weight, measured on the synthetic region).
    const sq = valueSale(subject({ areaSqft: 1000, lastSale: { price, month: now - 12 } }), lookup, ev);
    const local = valueSale(subject({ areaSqft: 1000 }), lookup, ev).log!;
    const own = Math.log(price) + 0.12;
    const d = own - local;
    expect(sq.log).toBeCloseTo(local + 0.5 * Math.min(1, 0.4 / Math.abs(d)) * d, 6);
  });

  it('a home in a district whose index the build flagged against UK HPI gets no High answer: the next rung', () => {
    const flagged = new IndexLookup(index(), now, new Set(['D1']));
    const sale = { price: 250_000, month: now - 12 };
    expect(valueSale(subject({ areaSqft: 1000, lastSale: sale }), flagged, ev)).toMatchObject({ confidence: 'Medium', method: 'sqft_estimate' });
    expect(valueSale(subject({ lastSale: sale }), flagged, new SaleEvidence(street(40, false), SALE_MODEL))).toMatchObject({ confidence: 'Low', method: 'comparables' });
    // Another district's flag changes nothing here.
    expect(valueSale(subject({ lastSale: sale }), new IndexLookup(index(), now, new Set(['D2'])), ev)).toMatchObject({ confidence: 'High' });
  });

  it('High without any local evidence is the indexed last sale alone', () => {
    const empty = new SaleEvidence(street(0), SALE_MODEL);
    const e = valueSale(subject({ lastSale: { price: 200_000, month: now - 12 } }), lookup, empty);
    expect(e).toMatchObject({ confidence: 'High', value: roundValue(200_000 * Math.exp(0.12)) });
  });

  it('Low: the nearest 7 of the same type when there is no sale and no floor area', () => {
    const e = valueSale(subject({}), lookup, new SaleEvidence(street(40, false), SALE_MODEL));
    expect(e).toMatchObject({ confidence: 'Low', method: 'comparables', evidence: 7 });
  });

  it('none: no sale and too few sold homes nearby, with the reason', () => {
    const e = valueSale(subject({ x: 1e7 }), lookup, ev);
    expect(e.value).toBeNull();
    if (e.value === null) expect(e.reason).toMatch(/no recorded sale and fewer than 3 sold homes within 2 km/);
  });

  it('never uses the home itself as evidence', () => {
    const own = street(5, false);
    const e = valueSale(subject({ uprn: 3 }), lookup, new SaleEvidence(own, { ...SALE_MODEL, compsMin: 5 }));
    expect(e.value).toBeNull();
  });
});

describe('helpers', () => {
  it('bounds are 90% and 110%, values rounded to £1,000 (£100 under £50,000)', () => {
    expect(saleBounds(300_000)).toEqual({ lower_bound: 270_000, upper_bound: 330_000 });
    expect(roundValue(123_456)).toBe(123_000);
    expect(roundValue(42_345)).toBe(42_300);
  });
  it('type and age codes', () => {
    expect(typeCode('Flat')).toBe(3);
    expect(typeCode(null)).toBe(UNKNOWN_TYPE);
    expect(ageCode('England and Wales: 2012 onwards')).toBe(11);
    expect(ageCode('England and Wales: before 1900')).toBe(0);
    expect(ageCode(null)).toBe(UNKNOWN_TYPE);
  });
});
