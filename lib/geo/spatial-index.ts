import Flatbush from 'flatbush';
import type { PlanningGeometry } from '../../schemas/sources/planning.ts';
import { prepareGeometry, preparedContains, type PreparedPolygon } from './point-in-polygon.ts';

/** Anything with a Polygon or MultiPolygon geometry. */
export interface HasGeometry {
  geometry: PlanningGeometry;
}

export interface PointIndex<F> {
  /** Number of features indexed. */
  readonly size: number;
  /** Every feature containing (lng, lat) (boundary counts), each once, in input order. */
  query(lng: number, lat: number): F[];
  /** The same, as positions in the input array (no lookup needed to number the results). */
  queryIds(lng: number, lat: number): number[];
}

/**
 * A static packed Hilbert R-tree (flatbush) over the bounding box of every polygon part of
 * every feature, then the exact test on the candidates. MultiPolygons are indexed part by
 * part so that a scattered feature (say a flood zone along a river) is not a candidate for
 * every point between its parts. Geometries are flattened to typed arrays once, here.
 */
export function buildIndex<F extends HasGeometry>(features: readonly F[]): PointIndex<F> {
  const parts: PreparedPolygon[] = [];
  const owner: number[] = []; // part → index of its feature
  for (const [i, f] of features.entries()) {
    for (const p of prepareGeometry(f.geometry)) {
      if (p.rings[0] === undefined || p.rings[0].coords.length === 0) continue; // an empty part contains nothing
      parts.push(p);
      owner.push(i);
    }
  }
  if (parts.length === 0) return { size: features.length, query: () => [], queryIds: () => [] };

  const tree = new Flatbush(parts.length);
  for (const p of parts) tree.add(p.minLng, p.minLat, p.maxLng, p.maxLat);
  tree.finish();

  function queryIds(lng: number, lat: number): number[] {
    if (Number.isNaN(lng) || Number.isNaN(lat)) return [];
    const hits = tree.search(lng, lat, lng, lat, (k) => preparedContains(parts[k]!, lng, lat));
    if (hits.length === 0) return hits;
    if (hits.length === 1) return [owner[hits[0]!]!];
    // Several parts: one entry per feature, in input order, whatever order the tree gave.
    return [...new Set(hits.map((k) => owner[k]!))].sort((a, b) => a - b);
  }

  return {
    size: features.length,
    queryIds,
    query: (lng, lat) => queryIds(lng, lat).map((i) => features[i]!),
  };
}
