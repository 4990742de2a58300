import { describe, expect, it } from 'vitest';
import { haversineM, localMetres, PlanarPoints, Points } from '../../lib/geo/points.ts';
import { seededRandom } from '../support/chaos.ts';

// Expectations by brute force over every point, with distances computed here independently:
// great-circle by the spherical law of cosines in 3-D vectors, planar by the definition of
// the local metres (equirectangular about 54°N).
const R = 6_371_000;
const rad = (d: number) => (d * Math.PI) / 180;
function chordAngle(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const v = (lat: number, lng: number) => [Math.cos(rad(lat)) * Math.cos(rad(lng)), Math.cos(rad(lat)) * Math.sin(rad(lng)), Math.sin(rad(lat))];
  const a = v(lat1, lng1);
  const b = v(lat2, lng2);
  const cross = [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
  return Math.atan2(Math.hypot(cross[0]!, cross[1]!, cross[2]!), a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!);
}
const greatCircle = (lat1: number, lng1: number, lat2: number, lng2: number) => R * chordAngle(lat1, lng1, lat2, lng2);
const planar = (lat1: number, lng1: number, lat2: number, lng2: number) =>
  Math.hypot((lng1 - lng2) * 111_320 * Math.cos(rad(54)), (lat1 - lat2) * 110_540);

/** Seeded (mulberry32): every run sees the same values. */
const random = seededRandom;

// 3,000 points over about 14 km × 11 km of Bristol, with some exact duplicates.
const rnd = random(43);
const N = 3_000;
const lat = new Float64Array(N);
const lng = new Float64Array(N);
for (let i = 0; i < N; i++) {
  if (i % 100 === 99) { lat[i] = lat[i - 1]!; lng[i] = lng[i - 1]!; continue; }
  lat[i] = 51.40 + rnd() * 0.1;
  lng[i] = -2.70 + rnd() * 0.2;
}
const points = new Points(lat, lng);
const centres: [number, number][] = [[51.45, -2.6], [51.4, -2.7], [51.5, -2.5], [lat[7]!, lng[7]!], [51.45, -2.9]];

function within(p: Points, la: number, ln: number, r: number): Map<number, number> {
  const out = new Map<number, number>();
  p.within(la, ln, r, (i, d) => {
    expect(out.has(i), `point ${i} visited twice`).toBe(false);
    out.set(i, d);
  });
  return out;
}

describe('haversineM', () => {
  it('agrees with the vector great-circle distance to a micrometre per kilometre', () => {
    for (let k = 0; k < 200; k++) {
      const [a, b] = [Math.floor(rnd() * N), Math.floor(rnd() * N)];
      const expected = greatCircle(lat[a]!, lng[a]!, lat[b]!, lng[b]!);
      expect(Math.abs(haversineM(lat[a]!, lng[a]!, lat[b]!, lng[b]!) - expected)).toBeLessThan(1e-6 * Math.max(1, expected / 1000));
    }
    expect(haversineM(51.45, -2.6, 51.45, -2.6)).toBe(0);
    // One degree of latitude on a 6,371 km sphere.
    expect(haversineM(51, -2, 52, -2)).toBeCloseTo((Math.PI / 180) * R, 6);
  });
});

describe('Points.within', () => {
  for (const r of [50, 500, 2_000, 10_000]) {
    it(`finds exactly the points within ${r} m (brute force), each once, with their distances`, () => {
      for (const [la, ln] of centres) {
        const got = within(points, la, ln, r);
        const expected: number[] = [];
        for (let i = 0; i < N; i++) if (greatCircle(la, ln, lat[i]!, lng[i]!) <= r) expected.push(i);
        // No point is within a nanometre of the circle here, so the two formulas agree on membership.
        expect([...got.keys()].sort((a, b) => a - b)).toEqual(expected);
        for (const [i, d] of got) expect(Math.abs(d - greatCircle(la, ln, lat[i]!, lng[i]!))).toBeLessThan(1e-6);
      }
      expect(centres.some(([la, ln]) => within(points, la, ln, r).size > 0)).toBe(true);
    });
  }

  it('withinIds lists the same points, ascending', () => {
    const ids = points.withinIds(51.45, -2.6, 2_000);
    expect(ids).toEqual([...within(points, 51.45, -2.6, 2_000).keys()].sort((a, b) => a - b));
    expect(ids.length).toBeGreaterThan(10);
  });

  it('includes a point exactly on the circle and excludes it a millimetre inside', () => {
    const [la, ln] = [51.45, -2.6];
    const i = 1234;
    const d = haversineM(la, ln, lat[i]!, lng[i]!);
    expect(within(points, la, ln, d).has(i)).toBe(true);
    expect(within(points, la, ln, d - 0.001).has(i)).toBe(false);
  });

  it('a radius of 0 finds only points at the very position (duplicates included)', () => {
    const got = [...within(points, lat[98]!, lng[98]!, 0).keys()].sort((a, b) => a - b);
    const expected: number[] = [];
    for (let i = 0; i < N; i++) if (lat[i] === lat[98] && lng[i] === lng[98]) expected.push(i);
    expect(got).toEqual(expected);
    expect(got).toEqual([98, 99]);
    expect(within(points, 51.45, -2.6, 0).size).toBe(0);
  });

  it('an empty set finds nothing, and points without a position are never found', () => {
    const empty = new Points(new Float64Array(0), new Float64Array(0));
    expect(within(empty, 51.45, -2.6, 1e6).size).toBe(0);
    expect(empty.nearest(51.45, -2.6, 5, 1e6)).toEqual([]);
    expect(empty.inBox(-180, -90, 180, 90)).toEqual([]);
    const some = new Points(Float64Array.of(51.45, NaN, 51.451), Float64Array.of(-2.6, -2.6, NaN));
    expect([...within(some, 51.45, -2.6, 1e6).keys()]).toEqual([0]);
    expect(some.nearest(51.45, -2.6, 3, 1e6)).toEqual([0]);
    const none = new Points(Float64Array.of(NaN), Float64Array.of(NaN));
    expect(within(none, 51.45, -2.6, 1e6).size).toBe(0);
  });

  it('a search from a place that is not one (NaN or infinite) finds nothing, however wide', () => {
    const p = new PlanarPoints(Float64Array.of(0, 10, NaN), Float64Array.of(0, 0, NaN));
    for (const [x, y] of [[NaN, NaN], [NaN, 0], [0, NaN], [Infinity, 0]] as const) expect(p.nearest(x, y, 3, Infinity), `${x}, ${y}`).toEqual([]);
    expect(p.nearest(0, 0, 3, Infinity)).toEqual([0, 1]);
  });
});

describe('Points.nearest', () => {
  it('gives the k nearest by local metres within the limit, nearest first (brute force)', () => {
    for (const [la, ln] of centres) {
      for (const [k, max] of [[1, 2_000], [10, 2_000], [25, 500], [5, 30_000]] as const) {
        const got = points.nearest(la, ln, k, max);
        const ranked = Array.from({ length: N }, (_, i) => ({ i, d: planar(la, ln, lat[i]!, lng[i]!) }))
          .filter((h) => h.d <= max).sort((a, b) => a.d - b.d);
        expect(got.length).toBe(Math.min(k, ranked.length));
        got.forEach((i, j) => expect(Math.abs(planar(la, ln, lat[i]!, lng[i]!) - ranked[j]!.d)).toBeLessThan(1e-6));
        for (const i of got) expect(Math.abs(points.localDistance(i, la, ln) - planar(la, ln, lat[i]!, lng[i]!))).toBeLessThan(1e-6);
      }
    }
  });

  it('returns both of two points at the same distance, and applies the filter before counting', () => {
    const p = new Points(Float64Array.of(51.45, 51.45, 51.46), Float64Array.of(-2.61, -2.59, -2.6));
    expect(p.nearest(51.45, -2.6, 2, 5_000).sort()).toEqual([0, 1]);
    expect(p.nearest(51.45, -2.6, 2, 5_000, (i) => i !== 0).sort()).toEqual([1, 2]);
    expect(p.nearest(51.45, -2.6, 3, 100)).toEqual([]);
  });
});

describe('Points.inBox and PlanarPoints', () => {
  it('inBox finds exactly the points in the lng/lat box, edges included', () => {
    const got = points.inBox(-2.65, 51.42, lng[5]!, lat[5]!).sort((a, b) => a - b);
    const expected: number[] = [];
    for (let i = 0; i < N; i++) if (lng[i]! >= -2.65 && lng[i]! <= lng[5]! && lat[i]! >= 51.42 && lat[i]! <= lat[5]!) expected.push(i);
    expect(got).toEqual(expected);
  });

  it('PlanarPoints.nearest ranks by Euclidean distance in the given coordinates', () => {
    const x = Float64Array.from({ length: 50 }, (_, i) => 10 * i);
    const p = new PlanarPoints(x, new Float64Array(50));
    expect(p.nearest(55, 0, 4, 1_000).slice(0, 2).sort()).toEqual([5, 6]);
    expect(p.nearest(55, 0, 4, 1_000).slice(2).sort()).toEqual([4, 7]);
    expect(p.nearest(55, 0, 10, 20)).toHaveLength(4);
    expect(p.distance(7, 55, 0)).toBe(15);
    expect(localMetres(54, 1)).toEqual([111_320 * Math.cos(rad(54)), 54 * 110_540]);
  });
});
