import { describe, expect, it } from 'vitest';
import { buildAreaIndex, nationalLogLevel, trueValue } from '../../../etl/synth/area-index.ts';
import { pcdForms } from '../../../etl/synth/formats.ts';
import { TOWNS, STR } from '../../../etl/synth/params.ts';
import { buildPlanning, contains, flagsAt, type PlanningShape } from '../../../etl/synth/planning.ts';
import { rng } from '../../../etl/synth/prng.ts';
import { apportion, planRegion } from '../../../etl/synth/region.ts';
import { letsFor, rentIndex, rentTruth, RentStats } from '../../../etl/synth/rents.ts';
import { salesFor, saleNoise } from '../../../etl/synth/sales.ts';
import { listingFor, newHost, type Ids } from '../../../etl/synth/str.ts';
import { dayOf, isoDay, monthOf, monthOfDay } from '../../../etl/synth/time.ts';
import { sectorUnits, UprnAllocator, type Property } from '../../../etl/synth/units.ts';

const SEED = 11;
const TODAY = monthOf('2025-09');
const plan = planRegion(6000);
const index = buildAreaIndex(SEED, TOWNS.map((town) => ({ town, districts: plan.filter((d) => d.town === town).map((d) => d.code) })), TODAY + 12);
const planning = buildPlanning(SEED, plan);

/** Every property of the region (6,000 addresses), generated in memory. */
function properties(): Property[] {
  const uprns = new UprnAllocator();
  const out: Property[] = [];
  for (const d of plan) d.sectorQuotas.forEach((q, s) => {
    for (const u of sectorUnits(SEED, d, s, q, uprns, planning, TODAY)) out.push(...u.properties);
  });
  return out;
}
const props = properties();
const sd = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('region plan', () => {
  it('apportions exactly and plans exactly N addresses', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(7, [0.5, 0.25, 0.25]).reduce((a, b) => a + b)).toBe(7);
    for (const n of [1, 999, 6000, 5_000_000]) expect(planRegion(n).reduce((a, d) => a + d.quota, 0)).toBe(n);
    // Bristol runs on into its overflow areas; Cardiff (22% of the demo mix) fills CF at about 19.8 million.
    expect(planRegion(12_000_000).reduce((a, d) => a + d.quota, 0)).toBe(12_000_000);
    expect(() => planRegion(20_000_000)).toThrow(/too many addresses for cardiff: the region holds at most about/);
    expect(props.length).toBe(6000);
  });

  it('gives every property a unique UPRN and its unit a valid live postcode', () => {
    expect(new Set(props.map((p) => p.uprn)).size).toBe(props.length);
    for (const p of props) expect(p.postcode).toMatch(/^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$/);
    expect(props.some((p) => p.oldPostcode !== undefined)).toBe(true);
    const shareFlats = props.filter((p) => p.type === 'F').length / props.length;
    expect(shareFlats).toBeGreaterThan(0.2);
    expect(shareFlats).toBeLessThan(0.6);
  });

  it('writes ONSPD pcd7/pcd8 forms as the real file does', () => {
    expect(pcdForms('M1 1AD')).toEqual(['M1  1AD', 'M1   1AD', 'M1 1AD']);
    expect(pcdForms('AB1 0AA')).toEqual(['AB1 0AA', 'AB1  0AA', 'AB1 0AA']);
    expect(pcdForms('SE1P 5ZZ')).toEqual(['SE1P5ZZ', 'SE1P 5ZZ', 'SE1P 5ZZ']);
  });
});

describe('price model', () => {
  it('has the UK shape: 2000s boom, 2007 peak above the 2009 trough, growth since, index 100 in 2023-01', () => {
    const lvl = (s: string) => Math.exp(nationalLogLevel(monthOf(s)));
    expect(lvl('2007-09') / lvl('2009-03')).toBeGreaterThan(1.15);
    expect(lvl('2025-09') / lvl('2000-01')).toBeGreaterThan(3);
    for (const d of index.districts()) expect(index.at(d, monthOf('2023-01'))).toBeCloseTo(100, 10);
    // Seasonality: July above January in most district-years.
    let up = 0;
    let all = 0;
    for (const d of index.districts()) for (let y = 2001; y <= 2024; y++) {
      all++;
      if (index.at(d, y * 12 + 6) > index.at(d, y * 12)) up++;
    }
    expect(up / all).toBeGreaterThan(0.6);
  });

  it('values are plausible for the UK and rise with floor area', () => {
    const today = props.map((p) => trueValue(p.baseValue, p.district.code, TODAY, index));
    expect(median(today)).toBeGreaterThan(180_000);
    expect(median(today)).toBeLessThan(450_000);
    const houses = props.filter((p) => p.type === 'S' && p.district.code === props[0]!.district.code);
    const big = houses.filter((p) => p.floorArea > 100).map((p) => p.baseValue / p.district.spec.ppsqm);
    const small = houses.filter((p) => p.floorArea < 85).map((p) => p.baseValue / p.district.spec.ppsqm);
    if (big.length > 5 && small.length > 5) expect(median(big)).toBeGreaterThan(median(small));
  });

  it('sale noise: SD of log(price / true value) is at least 0.10 over many sales, centred on zero', () => {
    const r = rng(SEED, 'noise-test');
    const draws = Array.from({ length: 50_000 }, () => saleNoise(r, 'A'));
    expect(sd(draws)).toBeGreaterThanOrEqual(0.1);
    expect(Math.abs(draws.reduce((a, b) => a + b, 0) / draws.length)).toBeLessThan(0.005);
    const sales = props.filter((p) => p.town.country !== 'S').flatMap((p) => salesFor(SEED, p, p.uprn, index, TODAY));
    expect(sales.length).toBeGreaterThan(3000);
    const logs = sales.map((s) => Math.log(s.price / s.trueValue));
    expect(sd(logs)).toBeGreaterThanOrEqual(0.1);
    expect(sd(logs)).toBeLessThan(0.2);
  });

  it('sales: true value at sale is the model value; repeat sales held a median of 8–12 years; new builds first', () => {
    const gaps: number[] = [];
    for (const p of props) {
      const sales = salesFor(SEED, p, p.uprn, index, TODAY);
      for (const s of sales) {
        expect(s.trueValue).toBe(Math.round(trueValue(p.baseValue, p.district.code, s.month, index)));
        expect(monthOfDay(s.day)).toBe(s.month);
        expect(s.month).toBeLessThan(TODAY);
      }
      if (p.builtMonth !== undefined) expect(sales[0]?.newBuild).toBe(true);
      for (let i = 1; i < sales.length; i++) gaps.push((sales[i]!.month - sales[i - 1]!.month) / 12);
    }
    expect(median(gaps)).toBeGreaterThanOrEqual(8);
    expect(median(gaps)).toBeLessThanOrEqual(12);
  });
});

describe('rents', () => {
  it('rent index is 1 today and grows over time', () => {
    expect(rentIndex(TODAY, TODAY)).toBe(1);
    expect(rentIndex(TODAY - 36, TODAY)).toBeLessThan(0.85);
    expect(rentIndex(TODAY + 12, TODAY)).toBeGreaterThan(1);
  });

  it('gross yields 3–8%, observed lets scatter around the true rent with log SD ≥ 0.15', () => {
    const yields: number[] = [];
    const noise: number[] = [];
    for (const p of props) {
      const rt = rentTruth(SEED, p, index, TODAY);
      yields.push((12 * rt.rentToday) / trueValue(p.baseValue, p.district.code, TODAY, index));
      for (const l of letsFor(SEED, p, rt, TODAY - 36, TODAY)) noise.push(Math.log(l.observedRent / l.trueRent));
    }
    expect(median(yields)).toBeGreaterThan(0.03);
    expect(median(yields)).toBeLessThan(0.08);
    expect(noise.length).toBeGreaterThan(500);
    expect(sd(noise)).toBeGreaterThanOrEqual(0.15);
  });

  it('streaming quartiles are close to the exact ones', () => {
    const s = new RentStats();
    const r = rng(1, 'q');
    const xs = Array.from({ length: 5000 }, () => 1000 * Math.exp(r.gauss(0, 0.3)));
    xs.forEach((x) => s.add(x));
    expect(s.quantile(0.5) / median(xs)).toBeCloseTo(1, 1);
    expect(s.count).toBe(5000);
  });
});

describe('short-term lets', () => {
  const scrape = dayOf('2025-09-26');
  const ids: Ids = { listing: 0, review: 0, host: 0 };
  const listings = props.map((p) => listingFor(SEED, p, (r, start) => newHost(r, ids, start, false), ids, scrape)).filter((l) => l !== undefined);

  it('lists 0.3–2% of addresses, mostly entire homes', () => {
    expect(listings.length / props.length).toBeGreaterThan(0.003);
    expect(listings.length / props.length).toBeLessThan(0.02);
    expect(listings.filter((l) => l.roomType === 'Entire home/apt').length / listings.length).toBeGreaterThan(0.5);
  });

  it('observed price scatters around the true rate with log SD ≥ 0.15; the listing row agrees with its calendar and reviews', () => {
    const noise: number[] = [];
    for (const l of listings) {
      const m = l.months.find((x) => x.month === monthOfDay(scrape))!;
      if (l.observedPrice !== undefined) noise.push(Math.log(l.observedPrice / m.adr));
      expect(l.calendar.length).toBe(365);
      expect(l.calendar.filter((c) => c.split(',')[2] === 't').length).toBe(Number(l.row.availability_365));
      expect(l.reviews.length).toBe(Number(l.row.number_of_reviews));
      if (!l.active) expect(l.row.price).toBe('');
      for (const mm of l.months) expect(mm.booked + mm.blocked).toBeLessThanOrEqual(31);
    }
    expect(sd(noise)).toBeGreaterThanOrEqual(0.15);
    expect(median(listings.map((l) => l.adrMean))).toBeGreaterThan(40);
    expect(median(listings.map((l) => l.adrMean))).toBeLessThan(250);
  });

  it("Inside Airbnb's occupancy estimate scatters around the true booked nights with log SD ≥ 0.15", () => {
    const sm = monthOfDay(scrape);
    const z: number[] = [];
    for (const l of listings) {
      if (!l.active) continue;
      const booked = l.months.filter((m) => m.month >= sm - 12 && m.month < sm).reduce((a, m) => a + m.booked, 0);
      const est = Number(l.row.estimated_occupancy_l365d);
      if (booked > 20 && est > 0) z.push(Math.log(est / booked));
    }
    expect(z.length).toBeGreaterThan(20);
    expect(sd(z)).toBeGreaterThanOrEqual(0.15);
  });

  it('occupancy follows the seasons (summer above winter)', () => {
    let summer = 0;
    let winter = 0;
    for (const l of listings) for (const m of l.months) {
      const mo = m.month % 12;
      if (mo === 6 || mo === 7) summer += m.booked;
      if (mo === 0 || mo === 1) winter += m.booked;
    }
    expect(summer).toBeGreaterThan(winter);
    expect(STR.reviewRate).toBe(0.5);
  });
});

describe('planning layers', () => {
  it('zone 3 lies inside zone 2; holes are excluded; flags report the highest zone', () => {
    const z2 = planning.filter((s) => s.dataset === 'flood-risk-zone' && s.floodLevel === 2);
    const z3 = planning.filter((s) => s.dataset === 'flood-risk-zone' && s.floodLevel === 3);
    expect(z2.length).toBeGreaterThan(0);
    for (const s of z3) for (const poly of s.polys) {
      const [lng, lat] = poly[0]![Math.floor(poly[0]!.length / 4)]!;
      // A vertex of zone 3 nudged towards the centre of its own ring is inside zone 2 as well.
      const ring = poly[0]!;
      const cx = ring.reduce((a, p) => a + p[0], 0) / ring.length;
      const cy = ring.reduce((a, p) => a + p[1], 0) / ring.length;
      const px = lng + (cx - lng) * 0.01;
      const py = lat + (cy - lat) * 0.01;
      expect(z2.some((z) => contains(z, px, py))).toBe(true);
    }
    const withHole = z2.find((s) => s.polys[0]!.length > 1)!;
    const hole = withHole.polys[0]![1]!;
    const hx = hole.reduce((a, p) => a + p[0], 0) / hole.length;
    const hy = hole.reduce((a, p) => a + p[1], 0) / hole.length;
    expect(contains(withHole, hx, hy)).toBe(false);
    const shapes: PlanningShape[] = [
      { ...withHole, floodLevel: 2, polys: [[[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]], bbox: [0, 0, 1, 1] },
      { ...withHole, floodLevel: 3, polys: [[[[0, 0], [0.5, 0], [0.5, 0.5], [0, 0.5], [0, 0]]]], bbox: [0, 0, 0.5, 0.5] },
    ];
    expect(flagsAt(shapes, 0.25, 0.25).floodZone).toBe(3);
    expect(flagsAt(shapes, 0.75, 0.75).floodZone).toBe(2);
    expect(flagsAt(shapes, 2, 2).floodZone).toBe(0);
  });

  it('no layers for Welsh or Scottish towns (planning.data.gov.uk is England only)', () => {
    expect(planning.every((s) => s.organisationEntity !== '' || s.dataset === 'flood-risk-zone')).toBe(true);
    const welsh = props.filter((p) => p.town.country !== 'E');
    expect(welsh.every((p) => p.flags.floodZone === 0 && !p.flags.conservation && !p.flags.article4)).toBe(true);
  });
});

describe('calendar arithmetic', () => {
  it('isoDay agrees with Date for every day from 1995 to 2030', () => {
    for (let d = dayOf('1995-01-01'); d <= dayOf('2030-12-31'); d += 1) {
      expect(isoDay(d)).toBe(new Date(d * 86_400_000).toISOString().slice(0, 10));
    }
  });
});
