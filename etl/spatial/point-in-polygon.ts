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

/** A polygon ready for repeated tests: flat rings (outer first) and the outer ring's bbox. */
export interface PreparedPolygon {
  rings: FlatRing[];
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

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

/** Prepares a polygon (outer ring first, then holes) for repeated tests. */
export function preparePolygon(polygon: PolygonCoords): PreparedPolygon {
  const rings = polygon.map(flattenRing);
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  const outer = rings[0] ?? new Float64Array(0);
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
  return geometry.type === 'Polygon' ? [preparePolygon(geometry.coordinates)] : geometry.coordinates.map(preparePolygon);
}

/**
 * Locates (x, y) against one ring by counting crossings of the ray towards +x (even-odd).
 * An edge counts when it straddles the ray's line half-open (one end strictly above y, the
 * other at or below), so a ray through a vertex is counted once. Which side of an edge the
 * point is on comes from the sign of a cross product; zero means on the edge's line.
 */
export function locateInRing(x: number, y: number, ring: FlatRing): Location {
  const n = ring.length;
  if (n === 0) return OUTSIDE;
  let inside = false;
  let ax = ring[n - 2]!;
  let ay = ring[n - 1]!;
  for (let i = 0; i < n; i += 2) {
    const bx = ring[i]!;
    const by = ring[i + 1]!;
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
    ax = bx;
    ay = by;
  }
  return inside ? INSIDE : OUTSIDE;
}

/** A prepared polygon contains the point: in or on the outer ring, and not strictly inside a hole. */
export function preparedContains(p: PreparedPolygon, x: number, y: number): boolean {
  if (x < p.minLng || x > p.maxLng || y < p.minLat || y > p.maxLat) return false;
  const outer = p.rings[0];
  if (!outer) return false;
  const o = locateInRing(x, y, outer);
  if (o === OUTSIDE) return false;
  if (o === BOUNDARY) return true;
  for (let h = 1; h < p.rings.length; h++) {
    if (locateInRing(x, y, p.rings[h]!) === INSIDE) return false;
  }
  return true;
}

/** Whether (lng, lat) is in the polygon: `polygon[0]` the outer ring, the rest holes. */
export function pointInPolygon(lng: number, lat: number, polygon: PolygonCoords): boolean {
  return preparedContains(preparePolygon(polygon), lng, lat);
}

/** Whether (lng, lat) is in a Polygon or in any part of a MultiPolygon. */
export function pointInGeometry(lng: number, lat: number, geometry: PlanningGeometry): boolean {
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return polys.some((p) => pointInPolygon(lng, lat, p));
}
