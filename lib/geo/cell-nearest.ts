import { cellKey as key } from './grid-cells.ts';

/** A point a cell reader offers: its planar position and what the caller keeps of it. */
export interface CellPoint<T> {
  x: number;
  y: number;
  item: T;
}

/**
 * The k nearest points within `maxM` of (x, y) (planar metres), from a store keyed by grid cell
 * (`cellKeyOfMetres` with cells of `cellM`): rings of cells about the point's cell are read,
 * nearest ring first, until the next ring lies beyond `maxM` or beyond the k-th point found.
 * `read(lo, hi, offer)` offers every point the caller accepts in the cells of keys lo … hi
 * (one row of cells). Ranked as `PlanarPoints.nearestRanked` ranks (lib/geo/points.ts): by
 * squared distance computed as flatbush computes it, then `tie`; the same k, nearest first.
 */
export function nearestInCells<T>(
  x: number, y: number, k: number, maxM: number, cellM: number,
  read: (lo: number, hi: number, offer: (x: number, y: number, item: T) => void) => void,
  tie: (a: T, b: T) => number,
): T[] {
  if (k <= 0 || !Number.isFinite(x) || !Number.isFinite(y)) return [];
  const max2 = maxM * maxM;
  const cx = Math.floor(x / cellM);
  const cy = Math.floor(y / cellM);
  // The point's least distance to its own cell's sides: any point r rings out is at least
  // (r − 1) cells and this far away. A millimetre spares the rounding of the cell's edges.
  const inner = Math.max(0, Math.min(x - cx * cellM, (cx + 1) * cellM - x, y - cy * cellM, (cy + 1) * cellM - y) - 1e-3);
  const found: Array<{ d: number; item: T }> = [];
  // Points further than the k-th of the rings read so far can never be among the k.
  let bound = max2;
  const offer = (px: number, py: number, item: T) => {
    const dx = Math.abs(px - x);
    const dy = Math.abs(py - y);
    const d = dx * dx + dy * dy;
    if (d <= bound) found.push({ d, item });
  };
  const rank = (a: { d: number; item: T }, b: { d: number; item: T }) => a.d - b.d || tie(a.item, b.item);
  for (let r = 0; ; r++) {
    if (r > 0) {
      const near = (r - 1) * cellM + inner;
      if (near > maxM) break;
      if (found.length >= k && near * near > found[k - 1]!.d) break;
    }
    if (r === 0) read(key(cx, cy), key(cx, cy), offer);
    else {
      read(key(cx - r, cy - r), key(cx + r, cy - r), offer);
      for (let row = cy - r + 1; row < cy + r; row++) {
        read(key(cx - r, row), key(cx - r, row), offer);
        read(key(cx + r, row), key(cx + r, row), offer);
      }
      read(key(cx - r, cy + r), key(cx + r, cy + r), offer);
    }
    // Keep the k nearest and every point tied with the k-th (the next rings may add nearer ones).
    found.sort(rank);
    if (found.length >= k) {
      bound = found[k - 1]!.d;
      let end = k;
      while (end < found.length && found[end]!.d === bound) end++;
      found.length = end;
    }
  }
  return found.slice(0, k).map((f) => f.item);
}
