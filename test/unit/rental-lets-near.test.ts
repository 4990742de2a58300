import { describe, expect, it } from 'vitest';
import { haversineM } from '../../lib/geo/points.ts';
import { valueRental } from '../../service/domain/valuation-models/rental.ts';
import { rentComparablesNear, rentalLetsNear, type LetRow, type RentLetsIndex } from '../../service/valuers/evidence.ts';

/**
 * rentalLetsNear searches one rental radius at a time: the lets it hands the valuation, the
 * radii it reads, and that valueRental answers over them as over every let within 1,300 m.
 */
const HOME = { lat: 51.45, lng: -2.6 };
/** Metres north of HOME as degrees of latitude (the index measures the real distance). */
const north = (m: number) => HOME.lat + m / 111_195;

interface Placed { lat: number; lng: number; row: LetRow }

/** Lets in an array, searched by brute force; `radii` records each search's radius. */
class ArrayLets implements RentLetsIndex {
  readonly radii: number[] = [];
  readonly asOf = '2025-08-31';
  readonly growthPerMonth = 0.002;
  constructor(private readonly lets: readonly Placed[]) {}
  within(lat: number, lng: number, radiusM: number, visit: (l: LetRow, d: number) => void): void {
    this.radii.push(radiusM);
    for (const p of this.lets) {
      const d = haversineM(lat, lng, p.lat, p.lng);
      if (d <= radiusM) visit(p.row, d);
    }
  }
  inArea(): void {
    throw new Error('not used');
  }
}

const letAt = (m: number, bedrooms: number, rent = 1000, o: Partial<LetRow> = {}): Placed => ({
  lat: north(m), lng: HOME.lng, row: { rent, bedrooms, flat: 0, date: '2025-06-01', day: 20240, uprn: 0, floorAreaSqft: NaN, ...o },
});

describe('rentalLetsNear', () => {
  it('reads 220 m only when five lets of the bedroom group lie within it, and keeps only that group', () => {
    const idx = new ArrayLets([...[100, 110, 120, 130, 140].map((m) => letAt(m, 2)), letAt(50, 3), letAt(60, 1), letAt(500, 2)]);
    const lets = rentalLetsNear(idx, HOME.lat, HOME.lng, 7, 2);
    expect(idx.radii).toEqual([220]);
    expect(lets.map((l) => [Math.round(l.distance_m), l.bedrooms])).toEqual([[100, 2], [110, 2], [120, 2], [130, 2], [140, 2]]);
  });

  it('widens to 670 m, then to 1,300 m, while fewer than five like lets lie within', () => {
    const four = [100, 110, 120, 130].map((m) => letAt(m, 2));
    const at670 = new ArrayLets([...four, letAt(500, 2), letAt(900, 2)]);
    expect(rentalLetsNear(at670, HOME.lat, HOME.lng, 7, 2)).toHaveLength(5);
    expect(at670.radii).toEqual([220, 670]);
    const at1300 = new ArrayLets([...four, letAt(1_000, 2), letAt(1_400, 2)]);
    expect(rentalLetsNear(at1300, HOME.lat, HOME.lng, 7, 2).map((l) => Math.round(l.distance_m))).toEqual([100, 110, 120, 130, 1_000]);
    expect(at1300.radii).toEqual([220, 670, 1_300]);
    const none = new ArrayLets([letAt(100, 3)]);
    expect(rentalLetsNear(none, HOME.lat, HOME.lng, 7, 2)).toEqual([]);
    expect(none.radii).toEqual([220, 670, 1_300]);
  });

  it('takes four bedrooms or more as one group, and marks the home\'s own lets', () => {
    const idx = new ArrayLets([letAt(100, 4), letAt(120, 5), letAt(140, 7, 1000, { uprn: 7 }), letAt(160, 4), letAt(180, 6), letAt(190, 3)]);
    const lets = rentalLetsNear(idx, HOME.lat, HOME.lng, 7, 6);
    expect(lets.map((l) => [l.bedrooms, l.same_home])).toEqual([[4, false], [5, false], [7, true], [4, false], [6, false]]);
    expect(idx.radii).toEqual([220]);
  });

  it('gives valueRental the answer it gives over every let within 1,300 m, over 400 random neighbourhoods', () => {
    // A seeded generator (mulberry32), so a failure names a layout that can be run again.
    let seed = 46;
    const rnd = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const radii = new Map<number, number>();
    for (let layout = 0; layout < 400; layout++) {
      // From a few lets to a city's hundreds, most far, some of the home itself.
      const n = Math.floor(rnd() ** 2 * 300);
      const lets: Placed[] = Array.from({ length: n }, () => {
        const m = rnd() ** 0.7 * 1_500;
        const bearing = rnd() * 2 * Math.PI;
        return {
          lat: HOME.lat + (m * Math.cos(bearing)) / 111_195,
          lng: HOME.lng + (m * Math.sin(bearing)) / (111_195 * Math.cos((HOME.lat * Math.PI) / 180)),
          row: {
            rent: 500 + Math.round(rnd() * 2_500), bedrooms: Math.floor(rnd() * 7), flat: rnd() < 0.4 ? 1 : 0, date: '', day: 19_600 + Math.floor(rnd() * 700),
            uprn: rnd() < 0.02 ? 7 : 100 + layout, floorAreaSqft: rnd() < 0.5 ? NaN : 400 + Math.round(rnd() * 1_200),
          },
        };
      });
      const idx = new ArrayLets(lets);
      for (const bedrooms of [0, 1, 2, 3, 4, 6]) {
        const subject = { bedrooms, flat: rnd() < 0.5, floor_area_sqft: rnd() < 0.5 ? null : 900 };
        const want = valueRental(subject, rentComparablesNear(idx, HOME.lat, HOME.lng, 7), idx.growthPerMonth);
        idx.radii.length = 0;
        expect(valueRental(subject, rentalLetsNear(idx, HOME.lat, HOME.lng, 7, bedrooms), idx.growthPerMonth), `layout ${layout}, ${bedrooms} bedrooms`).toEqual(want);
        const last = idx.radii.at(-1)!;
        radii.set(last, (radii.get(last) ?? 0) + 1);
      }
    }
    // Every radius was the last one read somewhere: the layouts exercise each way out.
    expect([...radii.keys()].sort((a, b) => a - b)).toEqual([220, 670, 1_300]);
  });
});
