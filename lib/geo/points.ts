import Flatbush from 'flatbush';

/**
 * Radius and nearest searches over a fixed set of points: the one index the service uses for
 * every point set (sales, lets, homes, listings, postcode centroids, crimes, licences). A
 * packed Hilbert R-tree (flatbush) over the points in local metres; radius answers measure
 * the great-circle distance (`haversineM`), nearest answers the local planar distance.
 */

/** Mean Earth radius in metres, the one the haversine uses. */
export const EARTH_RADIUS_M = 6_371_000;
const RAD = Math.PI / 180;

/** Great-circle distance in metres between two WGS84 points (haversine). */
export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lng2 - lng1) * RAD) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(a));
}

// Local metres: equirectangular about 54°N (the middle of Great Britain). Each axis is one
// monotone function, so a degree box maps onto the metre box of its corners.
const COS_54 = Math.cos((54 * Math.PI) / 180);
const toX = (lng: number): number => lng * 111_320 * COS_54;
const toY = (lat: number): number => lat * 110_540;

/** Local metres from WGS84 (equirectangular about 54°N; fine for distances of a few km in GB). */
export function localMetres(lat: number, lng: number): [number, number] {
  return [toX(lng), toY(lat)];
}

/**
 * Points given in planar metres (say `localMetres`): nearest by Euclidean distance. The sale
 * valuation model works in these coordinates; `Points` wraps one for WGS84 points.
 */
export class PlanarPoints {
  private readonly tree: Flatbush | null;
  /** Point of each tree entry when some points have no position (NaN), else null (entry = point). */
  private readonly ids: Int32Array | null;

  constructor(readonly x: ArrayLike<number>, readonly y: ArrayLike<number>) {
    const placed: number[] = [];
    for (let i = 0; i < x.length; i++) if (Number.isFinite(x[i]!) && Number.isFinite(y[i]!)) placed.push(i);
    this.ids = placed.length === x.length ? null : Int32Array.from(placed);
    if (placed.length === 0) {
      this.tree = null;
      return;
    }
    const tree = new Flatbush(placed.length);
    for (const i of placed) tree.add(x[i]!, y[i]!, x[i]!, y[i]!);
    tree.finish();
    this.tree = tree;
  }

  get size(): number {
    return this.x.length;
  }

  /**
   * Up to `k` points within `maxM` of (x, y) that `keep` accepts, nearest first (equal
   * distances in the tree's order). None from a place that is not one (a NaN or infinite coordinate).
   */
  nearest(x: number, y: number, k: number, maxM: number, keep?: (i: number) => boolean): number[] {
    if (!this.tree || !Number.isFinite(x) || !Number.isFinite(y)) return [];
    const ids = this.ids;
    if (!ids) return this.tree.neighbors(x, y, k, maxM, keep);
    return this.tree.neighbors(x, y, k, maxM, keep && ((e) => keep(ids[e]!))).map((e) => ids[e]!);
  }

  /**
   * `nearest`, with equal distances ranked by `tie` instead of the tree's order: the k nearest
   * by (squared planar distance, `tie`), nearest first. The points at the k-th distance are
   * all gathered (asking the tree for more until one lies further), so which of them make the
   * k does not depend on how the tree was packed (issue 46: a grid-cell file gives the same k).
   */
  nearestRanked(x: number, y: number, k: number, maxM: number, keep: ((i: number) => boolean) | undefined, tie: (a: number, b: number) => number): number[] {
    const d2 = (i: number) => {
      const dx = Math.abs(this.x[i]! - x);
      const dy = Math.abs(this.y[i]! - y);
      return dx * dx + dy * dy;
    };
    if (k <= 0) return [];
    for (let want = k + 1; ; want *= 2) {
      const ids = this.nearest(x, y, want, maxM, keep);
      if (ids.length === want && d2(ids[want - 1]!) <= d2(ids[k - 1]!)) continue;
      const ranked = ids.map((i) => ({ i, d: d2(i) })).sort((a, b) => a.d - b.d || tie(a.i, b.i));
      return ranked.slice(0, k).map((r) => r.i);
    }
  }

  /** Calls `visit(i)` for every point in the box (edges included), in the tree's order. Points without a position are in no box. */
  inBox(minX: number, minY: number, maxX: number, maxY: number, visit: (i: number) => void): void {
    const ids = this.ids;
    this.tree?.search(minX, minY, maxX, maxY, (e) => {
      visit(ids ? ids[e]! : e);
      return false;
    });
  }

  /** Euclidean distance from (x, y) to point `i`. */
  distance(i: number, x: number, y: number): number {
    return Math.hypot(this.x[i]! - x, this.y[i]! - y);
  }
}

/**
 * The local-metre box [minX, minY, maxX, maxY] that surely holds the circle of `radiusM` about
 * (lat, lng): longitude degrees shrink towards the pole, so the widest the circle reaches is at
 * its poleward edge. `Points.within` searches it (and a file keyed by grid cell reads its cells).
 */
export function radiusBox(lat: number, lng: number, radiusM: number): [number, number, number, number] {
  const dLat = (radiusM / EARTH_RADIUS_M) * (180 / Math.PI) * 1.0001;
  const edge = Math.min(89, Math.abs(lat) + dLat);
  const dLng = dLat / Math.cos(edge * RAD);
  return [toX(lng - dLng), toY(lat - dLat), toX(lng + dLng), toY(lat + dLat)];
}

/** WGS84 points: within a radius (great-circle metres), nearest (local metres), in a lng/lat box. */
export class Points {
  private readonly planar: PlanarPoints;

  constructor(readonly lat: ArrayLike<number>, readonly lng: ArrayLike<number>) {
    const x = new Float64Array(lat.length);
    const y = new Float64Array(lat.length);
    for (let i = 0; i < lat.length; i++) [x[i], y[i]] = localMetres(lat[i]!, lng[i]!);
    this.planar = new PlanarPoints(x, y);
  }

  get size(): number {
    return this.lat.length;
  }

  /**
   * Calls `visit(i, metres)` for every point within `radiusM` (great-circle, boundary
   * included) of (lat, lng), in the tree's order (no order promised).
   */
  within(lat: number, lng: number, radiusM: number, visit: (i: number, d: number) => void): void {
    const [minX, minY, maxX, maxY] = radiusBox(lat, lng, radiusM);
    this.planar.inBox(minX, minY, maxX, maxY, (i) => {
      const d = haversineM(lat, lng, this.lat[i]!, this.lng[i]!);
      if (d <= radiusM) visit(i, d);
    });
  }

  /** The points within `radiusM` of (lat, lng), ascending. */
  withinIds(lat: number, lng: number, radiusM: number): number[] {
    const out: number[] = [];
    this.within(lat, lng, radiusM, (i) => out.push(i));
    return out.sort((a, b) => a - b);
  }

  /**
   * Up to `k` points within `maxM` local metres of (lat, lng) that `keep` accepts, nearest
   * first by local planar distance (equal distances in the tree's order).
   */
  nearest(lat: number, lng: number, k: number, maxM: number, keep?: (i: number) => boolean): number[] {
    const [x, y] = localMetres(lat, lng);
    return this.planar.nearest(x, y, k, maxM, keep);
  }

  /** Local planar metres from (lat, lng) to point `i` (the distance `nearest` ranks by). */
  localDistance(i: number, lat: number, lng: number): number {
    const [x, y] = localMetres(lat, lng);
    return this.planar.distance(i, x, y);
  }

  /** Every point with minLng ≤ lng ≤ maxLng and minLat ≤ lat ≤ maxLat, in the tree's order. */
  inBox(minLng: number, minLat: number, maxLng: number, maxLat: number): number[] {
    const out: number[] = [];
    this.planar.inBox(toX(minLng), toY(minLat), toX(maxLng), toY(maxLat), (i) => out.push(i));
    return out;
  }
}
