import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BAND_MIN_VERTICES,
  BOUNDARY,
  buildBands,
  locateInPreparedRing,
  INSIDE,
  OUTSIDE,
  flattenRing,
  locateInRing,
  pointInGeometry,
  pointInPolygon,
} from '../../../lib/geo/point-in-polygon.ts';
import type { PolygonCoords, Ring } from '../../../schemas/sources/planning.ts';

// A 10×10 square (anticlockwise, closed) with a 2×2 hole at (4..6, 4..6) (clockwise).
const outer: Ring = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]];
const hole: Ring = [[4, 4], [4, 6], [6, 6], [6, 4], [4, 4]];
const withHole: PolygonCoords = [outer, hole];
const reversed = (r: Ring): Ring => [...r].reverse();

describe('locateInRing', () => {
  const ring = flattenRing(outer);
  it('tells inside, outside and boundary apart', () => {
    expect(locateInRing(5, 5, ring)).toBe(INSIDE);
    expect(locateInRing(11, 5, ring)).toBe(OUTSIDE);
    expect(locateInRing(-1, 5, ring)).toBe(OUTSIDE);
    expect(locateInRing(5, 10.000001, ring)).toBe(OUTSIDE);
    expect(locateInRing(10, 5, ring)).toBe(BOUNDARY); // vertical edge
    expect(locateInRing(5, 0, ring)).toBe(BOUNDARY); // horizontal edge
    expect(locateInRing(10, 10, ring)).toBe(BOUNDARY); // vertex
  });

  it('drops the closing vertex when flattening, and treats an unclosed ring the same', () => {
    expect(flattenRing(outer)).toEqual(new Float64Array([0, 0, 10, 0, 10, 10, 0, 10]));
    expect(flattenRing(outer.slice(0, 4))).toEqual(flattenRing(outer));
  });

  it('counts a ray through a vertex once (point level with a vertex, left of it)', () => {
    // Diamond: the ray from (-5, 0) passes exactly through the vertices (0, 0)... and (10, 0).
    const diamond = flattenRing([[0, 0], [5, -5], [10, 0], [5, 5], [0, 0]]);
    expect(locateInRing(5, 0, diamond)).toBe(INSIDE);
    expect(locateInRing(-5, 0, diamond)).toBe(OUTSIDE);
    expect(locateInRing(15, 0, diamond)).toBe(OUTSIDE);
    expect(locateInRing(0, 0, diamond)).toBe(BOUNDARY);
    expect(locateInRing(2.5, 2.5, diamond)).toBe(BOUNDARY); // on a diagonal edge, exact in doubles
  });

  it('an empty ring contains nothing', () => {
    expect(locateInRing(0, 0, new Float64Array(0))).toBe(OUTSIDE);
  });
});

describe('pointInPolygon', () => {
  it('is inside the outer ring and outside the hole', () => {
    expect(pointInPolygon(2, 2, withHole)).toBe(true);
    expect(pointInPolygon(5, 5, withHole)).toBe(false); // inside the hole
    expect(pointInPolygon(12, 5, withHole)).toBe(false);
  });

  it('counts a point on an edge or vertex of the outer ring as inside', () => {
    expect(pointInPolygon(0, 3, withHole)).toBe(true);
    expect(pointInPolygon(7, 10, withHole)).toBe(true);
    expect(pointInPolygon(0, 0, withHole)).toBe(true);
    expect(pointInPolygon(10, 10, withHole)).toBe(true);
  });

  it("counts a point on a hole's edge or vertex as inside the polygon", () => {
    expect(pointInPolygon(4, 5, withHole)).toBe(true);
    expect(pointInPolygon(5, 6, withHole)).toBe(true);
    expect(pointInPolygon(6, 4, withHole)).toBe(true);
  });

  it('gives the same answers for either ring orientation', () => {
    const variants: PolygonCoords[] = [
      [outer, hole],
      [reversed(outer), hole],
      [outer, reversed(hole)],
      [reversed(outer), reversed(hole)],
    ];
    const probes: [number, number][] = [[2, 2], [5, 5], [4, 5], [0, 0], [10, 5], [11, 5], [4.5, 6], [9.999, 9.999]];
    for (const [x, y] of probes) {
      const answers = variants.map((v) => pointInPolygon(x, y, v));
      expect(new Set(answers).size, `(${x}, ${y})`).toBe(1);
    }
  });

  it('ignores repeated and collinear vertices', () => {
    const noisy: Ring = [[0, 0], [5, 0], [5, 0], [10, 0], [10, 5], [10, 10], [0, 10], [0, 10], [0, 0]];
    for (const [x, y, want] of [[5, 5, true], [5, 0, true], [10, 7, true], [11, 0, false], [-1, 10, false]] as const) {
      expect(pointInPolygon(x, y, [noisy]), `(${x}, ${y})`).toBe(want);
    }
  });

  it('a bbox that contains the point is not enough (concave L shape)', () => {
    const ell: Ring = [[0, 0], [10, 0], [10, 2], [2, 2], [2, 10], [0, 10], [0, 0]];
    expect(pointInPolygon(1, 9, [ell])).toBe(true);
    expect(pointInPolygon(9, 1, [ell])).toBe(true);
    expect(pointInPolygon(9, 9, [ell])).toBe(false); // in the bbox, not in the L
    expect(pointInPolygon(2, 6, [ell])).toBe(true); // on the inner edge
  });

  it('a zero-area sliver contains only its boundary', () => {
    const sliver: Ring = [[0, 0], [4, 4], [8, 8], [0, 0]];
    expect(pointInPolygon(2, 2, [sliver])).toBe(true); // exactly on it
    expect(pointInPolygon(8, 8, [sliver])).toBe(true);
    expect(pointInPolygon(2, 2.0000001, [sliver])).toBe(false);
    expect(pointInPolygon(9, 9, [sliver])).toBe(false);
  });

  it('a very thin sliver still contains the points between its edges', () => {
    const thin: Ring = [[0, 0], [10, 0], [10, 1e-9], [0, 0]];
    expect(pointInPolygon(9, 0.5e-9, [thin])).toBe(true);
    expect(pointInPolygon(9, 2e-9, [thin])).toBe(false);
  });

  it('a polygon with no rings or an empty outer ring contains nothing', () => {
    expect(pointInPolygon(0, 0, [])).toBe(false);
    expect(pointInPolygon(0, 0, [[]])).toBe(false);
  });

  it('is deterministic on real-looking coordinates (same answer every call)', () => {
    const ring: Ring = [[-0.19, 52.33], [-0.18, 52.33], [-0.18, 52.34], [-0.19, 52.34], [-0.19, 52.33]];
    const x = -0.185;
    const y = 52.33; // on the south edge
    const first = pointInPolygon(x, y, [ring]);
    expect(first).toBe(true);
    for (let i = 0; i < 100; i++) expect(pointInPolygon(x, y, [ring])).toBe(first);
  });
});

describe('pointInGeometry', () => {
  const multi = {
    type: 'MultiPolygon' as const,
    coordinates: [withHole, [[[20, 20], [30, 20], [30, 30], [20, 30], [20, 20]]]] as PolygonCoords[],
  };

  it('tests every part of a MultiPolygon', () => {
    expect(pointInGeometry(2, 2, multi)).toBe(true);
    expect(pointInGeometry(25, 25, multi)).toBe(true);
    expect(pointInGeometry(5, 5, multi)).toBe(false); // hole of the first part
    expect(pointInGeometry(15, 15, multi)).toBe(false); // between the parts, inside the overall bbox
    expect(pointInGeometry(30, 25, multi)).toBe(true); // edge of the second part
  });

  it('tests a Polygon', () => {
    const poly = { type: 'Polygon' as const, coordinates: withHole };
    expect(pointInGeometry(2, 2, poly)).toBe(true);
    expect(pointInGeometry(5, 5, poly)).toBe(false);
    expect(pointInGeometry(6, 5, poly)).toBe(true);
  });

  it('a part inside another part\'s hole is its own area (island in a lake)', () => {
    const island = {
      type: 'MultiPolygon' as const,
      coordinates: [withHole, [[[4.5, 4.5], [5.5, 4.5], [5.5, 5.5], [4.5, 5.5], [4.5, 4.5]]]] as PolygonCoords[],
    };
    expect(pointInGeometry(5, 5, island)).toBe(true);
    expect(pointInGeometry(4.2, 4.2, island)).toBe(false);
  });
});

describe('band buckets for large rings', () => {
  it('are built only for rings of BAND_MIN_VERTICES or more that are not flat', () => {
    expect(buildBands(flattenRing(outer))).toBeUndefined();
    const circle = (n: number, r = 1): Ring => {
      const ring: Ring = Array.from({ length: n }, (_, i) => [r * Math.cos((2 * Math.PI * i) / n), r * Math.sin((2 * Math.PI * i) / n)]);
      return [...ring, ring[0]!];
    };
    const bands = buildBands(flattenRing(circle(100)));
    expect(bands?.count).toBe(25);
    // Every edge is listed at least once; a circle's edge spans one or two bands.
    expect(new Set(bands!.edges).size).toBe(100);
    expect(bands!.edges.length).toBeLessThan(200);
    expect(buildBands(flattenRing(circle(BAND_MIN_VERTICES - 1)))).toBeUndefined();
    const flat: Ring = Array.from({ length: 40 }, (_, i) => [i, 0]);
    expect(buildBands(flattenRing(flat))).toBeUndefined();
  });

  it('give the same location as visiting every edge, for random (even self-crossing) rings', () => {
    // Random walks on a 1/4 grid: self-intersecting, collinear and repeated vertices, many
    // points exactly on edges and vertices, and on band boundaries.
    const arbRing = fc.array(fc.tuple(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 80 })), { minLength: BAND_MIN_VERTICES, maxLength: 150 });
    const arbPoint = fc.tuple(fc.integer({ min: -4, max: 84 }), fc.integer({ min: -4, max: 84 }));
    fc.assert(
      fc.property(arbRing, fc.array(arbPoint, { minLength: 1, maxLength: 100 }), (verts, points) => {
        const flat = flattenRing(verts.map(([x, y]) => [x / 4, y / 4]));
        const prepared = { coords: flat, bands: buildBands(flat) };
        const differ = points
          .map(([x, y]) => [x / 4, y / 4] as const)
          .filter(([x, y]) => locateInPreparedRing(x, y, prepared) !== locateInRing(x, y, flat));
        expect(differ).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
