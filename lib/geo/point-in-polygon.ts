import type { PlanningGeometry, PolygonCoords, Ring } from '../../schemas/sources/planning.ts';

/**
 * Point-in-polygon on [lng, lat] coordinates, treated as a plane (the layers are small
 * areas in WGS84; no edge is long enough for the curvature of a geodesic to matter).
 *
 * Boundary rule: a point exactly on an edge or a vertex of a polygon's outer ring is
 * INSIDE, and so is a point exactly on the edge or vertex of one of its holes (the hole's
 * edge belongs to the polygon around it). A property on the line of a flood zone is
 * flagged. "Exactly" means in IEEE double arithmetic: the test is a cross product compared
 * with zero, so the answer is deterministic for given coordinates, whatever the machine.
 *
 * Robust to either ring orientation (even-odd crossing count, no winding assumed), a
 * repeated closing vertex or none, repeated and collinear vertices, and zero-area slivers
 * (only their boundary contains anything). Crossing features are not merged: each is
 * tested on its own, so a point in two overlapping features is in both.
 */

/** Where a point lies relative to one ring. */
export const OUTSIDE = 0;
export const BOUNDARY = 1;
export const INSIDE = 2;
export type Location = typeof OUTSIDE | typeof BOUNDARY | typeof INSIDE;

/** A ring as flat [lng0, lat0, lng1, lat1, …], the closing vertex dropped. */
export type FlatRing = Float64Array;

/**
 * Edges of a ring bucketed by horizontal band (CSR layout): band b lists, in
 * `edges[start[b]] .. edges[start[b + 1] - 1]`, every edge whose closed y-range meets it. A
 * point only needs the edges of its own band: an edge whose y-range misses the point's y can
 * neither cross its ray nor hold it. Turns a test on a 500-vertex flood zone from 500 edges
 * into a handful.
 */
export interface RingBands {
  y0: number;
  height: number;
  count: number;
  start: Int32Array;
  edges: Int32Array;
}

export interface PreparedRing {
  coords: FlatRing;
  bands: RingBands | undefined;
}

/** A polygon ready for repeated tests: rings (outer first) and the outer ring's bbox. */
export interface PreparedPolygon {
  rings: PreparedRing[];
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/** Rings with fewer vertices are scanned whole: bands would not pay for themselves. */
export const BAND_MIN_VERTICES = 32;
/** About this many vertices per band. */
const VERTICES_PER_BAND = 4;

/** Flattens a ring; a closing vertex equal to the first is dropped (the loop wraps round). */
export function flattenRing(ring: Ring): FlatRing {
  let n = ring.length;
  const first = ring[0];
  const last = ring[n - 1];
  if (n > 1 && first && last && first[0] === last[0] && first[1] === last[1]) n--;
  const out = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    const p = ring[i]!;
    out[2 * i] = p[0];
    out[2 * i + 1] = p[1];
  }
  return out;
}

/** Band of y: floor((y - y0) / height) clamped; monotonic in y, so ranges map to band ranges. */
function bandOf(b: RingBands, y: number): number {
  const k = Math.floor((y - b.y0) / b.height);
  return k < 0 ? 0 : k >= b.count ? b.count - 1 : k;
}

/** Buckets the edges of a ring by band; undefined for small or flat rings. */
export function buildBands(c: FlatRing): RingBands | undefined {
  const m = c.length / 2;
  if (m < BAND_MIN_VERTICES) return undefined;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 1; i < c.length; i += 2) {
    if (c[i]! < minY) minY = c[i]!;
    if (c[i]! > maxY) maxY = c[i]!;
  }
  const count = Math.ceil(m / VERTICES_PER_BAND);
  const height = (maxY - minY) / count;
  if (!(height > 0)) return undefined;
  const b: RingBands = { y0: minY, height, count, start: new Int32Array(count + 1), edges: new Int32Array(0) };
  // Edge e joins vertex e-1 (wrapping to the last) and vertex e, as in locate().
  const span = (e: number): [number, number] => {
    const ay = c[e === 0 ? c.length - 1 : 2 * e - 1]!;
    const by = c[2 * e + 1]!;
    return [bandOf(b, Math.min(ay, by)), bandOf(b, Math.max(ay, by))];
  };
  for (let e = 0; e < m; e++) {
    const [lo, hi] = span(e);
    for (let k = lo; k <= hi; k++) b.start[k + 1]!++;
  }
  for (let k = 0; k < count; k++) b.start[k + 1]! += b.start[k]!;
  b.edges = new Int32Array(b.start[count]!);
  const fill = b.start.slice(0, count);
  for (let e = 0; e < m; e++) {
    const [lo, hi] = span(e);
    for (let k = lo; k <= hi; k++) b.edges[fill[k]!++] = e;
  }
  return b;
}

/** Prepares a polygon (outer ring first, then holes) for repeated tests; `bands` for large rings. */
export function preparePolygon(polygon: PolygonCoords, bands = true): PreparedPolygon {
  const rings = polygon.map((r) => {
    const coords = flattenRing(r);
    return { coords, bands: bands ? buildBands(coords) : undefined };
  });
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  const outer = rings[0]?.coords ?? new Float64Array(0);
  for (let i = 0; i < outer.length; i += 2) {
    const x = outer[i]!;
    const y = outer[i + 1]!;
    if (x < minLng) minLng = x;
    if (x > maxLng) maxLng = x;
    if (y < minLat) minLat = y;
    if (y > maxLat) maxLat = y;
  }
  return { rings, minLng, minLat, maxLng, maxLat };
}

/** The polygons of a Polygon or MultiPolygon, prepared. */
export function prepareGeometry(geometry: PlanningGeometry): PreparedPolygon[] {
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return polys.map((p) => preparePolygon(p));
}

/**
 * Locates (x, y) against one ring by counting crossings of the ray towards +x (even-odd).
 * An edge counts when it straddles the ray's line half-open (one end strictly above y, the
 * other at or below), so a ray through a vertex is counted once. Which side of an edge the
 * point is on comes from the sign of a cross product; zero means on the edge's line.
 * Edges are visited in order `from..to-1`, through `edges` when given (a band's list).
 */
function locate(x: number, y: number, c: FlatRing, edges: Int32Array | undefined, from: number, to: number): Location {
  const n = c.length;
  let inside = false;
  for (let k = from; k < to; k++) {
    const e = edges === undefined ? k : edges[k]!;
    const i = 2 * e;
    const j = e === 0 ? n - 2 : i - 2;
    const ax = c[j]!;
    const ay = c[j + 1]!;
    const bx = c[i]!;
    const by = c[i + 1]!;
    if (ay > y !== by > y) {
      // The edge spans y: the point is on it, left of it (the ray crosses) or right of it.
      const cross = (bx - ax) * (y - ay) - (x - ax) * (by - ay);
      if (cross === 0) return BOUNDARY;
      if (cross > 0 === by > ay) inside = !inside;
    } else if (ay === y || by === y) {
      // Touches the ray's line without spanning it: on the edge only if horizontal and
      // covering x, or if the point is the vertex itself.
      if (ay === by) {
        if ((ax <= x && x <= bx) || (bx <= x && x <= ax)) return BOUNDARY;
      } else if ((ay === y && ax === x) || (by === y && bx === x)) {
        return BOUNDARY;
      }
    }
  }
  return inside ? INSIDE : OUTSIDE;
}

/** Locates (x, y) against a flat ring, every edge visited. */
export function locateInRing(x: number, y: number, ring: FlatRing): Location {
  return locate(x, y, ring, undefined, 0, ring.length / 2);
}

/** Locates (x, y) against a prepared ring, visiting only the edges of y's band when it has bands. */
export function locateInPreparedRing(x: number, y: number, r: PreparedRing): Location {
  const b = r.bands;
  if (b === undefined) return locate(x, y, r.coords, undefined, 0, r.coords.length / 2);
  const k = bandOf(b, y);
  return locate(x, y, r.coords, b.edges, b.start[k]!, b.start[k + 1]!);
}

/** A prepared polygon contains the point: in or on the outer ring, and not strictly inside a hole. */
export function preparedContains(p: PreparedPolygon, x: number, y: number): boolean {
  if (x < p.minLng || x > p.maxLng || y < p.minLat || y > p.maxLat) return false;
  const outer = p.rings[0];
  if (!outer) return false;
  const o = locateInPreparedRing(x, y, outer);
  if (o === OUTSIDE) return false;
  if (o === BOUNDARY) return true;
  for (let h = 1; h < p.rings.length; h++) {
    if (locateInPreparedRing(x, y, p.rings[h]!) === INSIDE) return false;
  }
  return true;
}

/** Whether (lng, lat) is in the polygon: `polygon[0]` the outer ring, the rest holes. One-off: no bands. */
export function pointInPolygon(lng: number, lat: number, polygon: PolygonCoords): boolean {
  return preparedContains(preparePolygon(polygon, false), lng, lat);
}

/** Whether (lng, lat) is in a Polygon or in any part of a MultiPolygon. */
export function pointInGeometry(lng: number, lat: number, geometry: PlanningGeometry): boolean {
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return polys.some((p) => pointInPolygon(lng, lat, p));
}
