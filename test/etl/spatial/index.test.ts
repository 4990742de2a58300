import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../../lib/geo/spatial-index.ts';
import { pointInGeometry } from '../../../lib/geo/point-in-polygon.ts';
import type { PlanningGeometry, PolygonCoords, Position, Ring } from '../../../schemas/sources/planning.ts';

interface F {
  id: string;
  geometry: PlanningGeometry;
}

const square = (x0: number, y0: number, x1: number, y1: number): Ring => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
const poly = (id: string, ...rings: Ring[]): F => ({ id, geometry: { type: 'Polygon', coordinates: rings } });
const multi = (id: string, ...polys: PolygonCoords[]): F => ({ id, geometry: { type: 'MultiPolygon', coordinates: polys } });
const ids = (fs: F[]) => fs.map((f) => f.id);

describe('buildIndex', () => {
  const features: F[] = [
    poly('a', square(0, 0, 10, 10), square(4, 4, 6, 6)), // with a hole
    poly('b', square(5, 5, 15, 15)), // overlaps a (and covers part of a's hole)
    poly('ell', [[20, 0], [30, 0], [30, 2], [22, 2], [22, 10], [20, 10], [20, 0]]),
    multi('m', [square(40, 0, 42, 2)], [square(48, 0, 50, 2)]),
  ];
  const index = buildIndex(features);

  it('returns every feature containing the point, in input order', () => {
    expect(index.size).toBe(4);
    expect(index.queryIds(7, 7)).toEqual([0, 1]);
    expect(ids(index.query(1, 1))).toEqual(['a']);
    expect(ids(index.query(7, 7))).toEqual(['a', 'b']); // overlapping: in both
    expect(ids(index.query(12, 12))).toEqual(['b']);
    expect(ids(index.query(-1, -1))).toEqual([]);
  });

  it("applies holes: a's hole excludes a but not b where b covers it", () => {
    expect(ids(index.query(4.5, 4.5))).toEqual([]);
    expect(ids(index.query(5.5, 5.5))).toEqual(['b']);
    expect(ids(index.query(4, 5))).toEqual(['a']); // a's hole edge counts as a
    expect(ids(index.query(5, 5))).toEqual(['b']); // b's corner, strictly inside a's hole
    expect(ids(index.query(6, 6))).toEqual(['a', 'b']); // a's hole vertex, inside b
  });

  it('does not return a feature whose bbox contains the point but whose polygon does not', () => {
    expect(ids(index.query(28, 8))).toEqual([]);
    expect(ids(index.query(21, 8))).toEqual(['ell']);
  });

  it('indexes multipolygon parts separately and returns the feature once', () => {
    expect(ids(index.query(41, 1))).toEqual(['m']);
    expect(ids(index.query(49, 1))).toEqual(['m']);
    expect(ids(index.query(45, 1))).toEqual([]); // between the parts
    const overlapping = buildIndex([multi('dup', [square(0, 0, 2, 2)], [square(1, 1, 3, 3)])]);
    expect(ids(overlapping.query(1.5, 1.5))).toEqual(['dup']);
  });

  it('counts boundaries as inside through the index too', () => {
    expect(ids(index.query(15, 10))).toEqual(['b']);
    expect(ids(index.query(10, 10))).toEqual(['a', 'b']);
    expect(ids(index.query(42, 2))).toEqual(['m']);
  });

  it('features crossing each other: each region of the overlay, and the crossing points, get the right features', () => {
    // Two diamonds whose edges cross (not nested, not just touching), and a third polygon
    // sharing one whole edge with the first (neighbouring zones drawn edge to edge).
    const crossing = buildIndex([
      poly('d1', [[0, 5], [5, 0], [10, 5], [5, 10], [0, 5]]),
      poly('d2', [[4, 5], [9, 0], [14, 5], [9, 10], [4, 5]]),
      poly('next', [[5, 0], [10, 5], [10, 0], [5, 0]]),
    ]);
    expect(ids(crossing.query(2, 5))).toEqual(['d1']); // d1 only
    expect(ids(crossing.query(7, 5))).toEqual(['d1', 'd2']); // the lens where they overlap
    expect(ids(crossing.query(12, 5))).toEqual(['d2']); // d2 only
    expect(ids(crossing.query(7, 9.5))).toEqual([]); // the notch between them, inside both bboxes
    expect(ids(crossing.query(7, 8))).toEqual(['d1', 'd2']); // where d1's NE edge crosses d2's NW edge
    expect(ids(crossing.query(7, 2))).toEqual(['d1', 'd2', 'next']); // where d1's SE edge (shared with next) crosses d2's SW edge
    expect(ids(crossing.query(8, 1))).toEqual(['d2', 'next']); // strictly inside next, on d2's edge
    expect(ids(crossing.query(9.5, 1))).toEqual(['d2', 'next']);
  });

  it('handles no features, empty parts and NaN coordinates', () => {
    expect(buildIndex<F>([]).query(0, 0)).toEqual([]);
    const empty = buildIndex([poly('e')]);
    expect(empty.size).toBe(1);
    expect(empty.query(0, 0)).toEqual([]);
    expect(index.query(Number.NaN, 1)).toEqual([]);
    expect(index.query(1, Number.NaN)).toEqual([]);
  });
});

// ---- property: the index agrees with a scan of every feature ----

/** A star-shaped ring around (cx, cy): irregular, never self-intersecting; either orientation. */
function star(cx: number, cy: number, radii: number[], phase: number, clockwise: boolean, scale: number): Ring {
  const n = radii.length;
  const ring: Position[] = radii.map((r, i) => {
    const a = phase + (2 * Math.PI * i) / n;
    // Snap to a 1/8 grid so that many probe points fall exactly on edges and vertices.
    return [Math.round((cx + r * scale * Math.cos(a)) * 8) / 8, Math.round((cy + r * scale * Math.sin(a)) * 8) / 8];
  });
  if (clockwise) ring.reverse();
  ring.push([ring[0]![0], ring[0]![1]]);
  return ring;
}

const radius = fc.double({ min: 0.5, max: 1, noNaN: true });
// Small rings are scanned whole; rings of 32+ vertices go through the band buckets.
const arbRadii = fc.oneof(fc.array(radius, { minLength: 3, maxLength: 12 }), fc.array(radius, { minLength: 32, maxLength: 90 }));
const arbPolygon: fc.Arbitrary<PolygonCoords> = fc
  .record({
    cx: fc.integer({ min: 0, max: 40 }),
    cy: fc.integer({ min: 0, max: 40 }),
    scale: fc.integer({ min: 1, max: 12 }),
    radii: arbRadii,
    holeRadii: fc.option(arbRadii, { nil: undefined }),
    phase: fc.double({ min: 0, max: 6.3, noNaN: true }),
    cw: fc.boolean(),
    holeCw: fc.boolean(),
  })
  .map(({ cx, cy, scale, radii, holeRadii, phase, cw, holeCw }) => {
    const rings = [star(cx, cy, radii, phase, cw, scale)];
    // A hole at 0.15 of the scale mostly stays inside the outer ring; grid snapping can make
    // it cross on the smallest polygons, which the scan and the index must then agree on too.
    if (holeRadii) rings.push(star(cx, cy, holeRadii, phase + 0.3, holeCw, scale * 0.15));
    return rings;
  });
const arbGeometry: fc.Arbitrary<PlanningGeometry> = fc.oneof(
  arbPolygon.map((coordinates) => ({ type: 'Polygon' as const, coordinates })),
  fc.array(arbPolygon, { minLength: 1, maxLength: 4 }).map((coordinates) => ({ type: 'MultiPolygon' as const, coordinates })),
);
// Points on the same 1/8 grid as the vertices, so boundary hits are common.
const arbPoint = fc.tuple(fc.integer({ min: -40, max: 440 }), fc.integer({ min: -40, max: 440 })).map(([x, y]) => [x / 8, y / 8] as const);

describe('buildIndex property', () => {
  it('equals a brute-force scan over all features, for random polygons and points', () => {
    fc.assert(
      fc.property(fc.array(arbGeometry, { minLength: 1, maxLength: 30 }), fc.array(arbPoint, { minLength: 1, maxLength: 200 }), (geoms, points) => {
        const features = geoms.map((geometry, i) => ({ id: String(i), geometry }));
        const index = buildIndex(features);
        const differ: string[] = [];
        for (const [x, y] of points) {
          const brute = features.filter((f) => pointInGeometry(x, y, f.geometry)).map((f) => f.id).join();
          const got = index.query(x, y).map((f) => f.id).join();
          if (got !== brute) differ.push(`(${x}, ${y}): index [${got}], scan [${brute}]`);
        }
        expect(differ).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("finds every vertex of every part's outer ring (boundary is inside)", () => {
    fc.assert(
      fc.property(fc.array(arbGeometry, { minLength: 1, maxLength: 10 }), (geoms) => {
        const features = geoms.map((geometry, i) => ({ id: String(i), geometry }));
        const index = buildIndex(features);
        const missed: string[] = [];
        for (const f of features) {
          const polys = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
          for (const [outer] of polys) {
            for (const [x, y] of outer ?? []) if (!index.query(x, y).includes(f)) missed.push(`${f.id} at (${x}, ${y})`);
          }
        }
        expect(missed).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
