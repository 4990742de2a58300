import { cellKeyAt, cellOfMetres, cellRanges } from '../geo/grid-cells.ts';
import { haversineM, localMetres, radiusBox } from '../geo/points.ts';
import type { KeyedRowsFile } from './keyed-rows-file.ts';

/**
 * The radius and nearest searches of `Points` (lib/geo/points.ts) over a keyed-rows file of
 * points keyed by grid cell (lib/geo/grid-cells.ts; the ETL writes one from a `LookupFileSpec`
 * with `cell`), read where it lies: a search reads the pages of the cells around its point
 * instead of every process holding the points in an R-tree (issue 46, ADR 0015 step 6).
 *
 * Answers are those of `Points` over the same points: `within` the same points with the same
 * distances; `nearest` the same distances, equal distances in the file's order (cell, then the
 * order written) where the R-tree gives its own.
 */
export class CellPoints<R> {
  constructor(
    readonly file: KeyedRowsFile<R>,
    readonly cellM: number,
    /** A row's position; null for a row without one (never in an answer). */
    private readonly position: (row: R) => { lat: number; lng: number } | null,
  ) {
    if (!(cellM >= 10)) throw new Error(`CellPoints: a cell of ${cellM} m (at least 10)`);
  }

  get size(): number {
    return this.file.size;
  }

  /**
   * Calls `visit(row, metres)` for every row within `radiusM` (great-circle, boundary included)
   * of (lat, lng), in the file's order; none from a place that is not one.
   */
  within(lat: number, lng: number, radiusM: number, visit: (row: R, d: number) => void): void {
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !(radiusM >= 0)) return;
    const [minX, minY, maxX, maxY] = radiusBox(lat, lng, radiusM);
    for (const [lo, hi] of cellRanges(minX, minY, maxX, maxY, this.cellM)) {
      for (const row of this.file.range(lo, hi)) {
        const p = this.position(row);
        if (!p) continue;
        // The box first, as the R-tree searches it: the haversine is then the same test.
        const [x, y] = localMetres(p.lat, p.lng);
        if (x < minX || x > maxX || y < minY || y > maxY) continue;
        const d = haversineM(lat, lng, p.lat, p.lng);
        if (d <= radiusM) visit(row, d);
      }
    }
  }

  /**
   * Up to `k` rows within `maxM` local planar metres of (lat, lng) that `keep` accepts, nearest
   * first (equal distances in the file's order), with their distances. Reads rings of cells
   * outwards until no unread cell can hold a nearer row than the k-th found, or none within
   * `maxM`: about (2·maxM / cellM)² cells at worst, so `maxM` must be finite and a few cells.
   */
  nearest(lat: number, lng: number, k: number, maxM: number, keep?: (row: R) => boolean): Array<{ row: R; d: number }> {
    if (!Number.isFinite(maxM)) throw new Error('CellPoints.nearest: a finite maxM (it reads rings of cells out to it)');
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !(k >= 1) || !(maxM >= 0)) return [];
    const [x, y] = localMetres(lat, lng);
    const m = this.cellM;
    const [cx, cy] = cellOfMetres(x, y, m);
    const found: Array<{ row: R; d: number; cell: number; at: number }> = [];
    const keyName = this.file.meta.key.name;
    const take = (lo: number, hi: number) => {
      let cell = NaN;
      let at = 0;
      for (const row of this.file.range(lo, hi)) {
        const key = (row as Record<string, unknown>)[keyName] as number;
        at = key === cell ? at + 1 : 0;
        cell = key;
        const p = this.position(row);
        if (!p) continue;
        const [px, py] = localMetres(p.lat, p.lng);
        const d = Math.hypot(px - x, py - y);
        if (d <= maxM && (!keep || keep(row))) found.push({ row, d, cell, at });
      }
    };
    // Ring r: the cells whose column or row is r from the point's.
    for (let r = 0; ; r++) {
      for (let row = cy - r; row <= cy + r; row++) {
        if (row === cy - r || row === cy + r) take(cellKeyAt(cx - r, row), cellKeyAt(cx + r, row));
        else {
          take(cellKeyAt(cx - r, row), cellKeyAt(cx - r, row));
          take(cellKeyAt(cx + r, row), cellKeyAt(cx + r, row));
        }
      }
      // The nearest an unread cell can be: the point's distance to the edge of the square read.
      const reach = Math.min(x - (cx - r) * m, (cx + r + 1) * m - x, y - (cy - r) * m, (cy + r + 1) * m - y);
      if (reach > maxM) break;
      if (found.length >= k && kthSmallest(found.map((f) => f.d), k) <= reach) break;
    }
    found.sort((a, b) => a.d - b.d || a.cell - b.cell || a.at - b.at);
    return found.slice(0, k).map(({ row, d }) => ({ row, d }));
  }
}

/** The k-th smallest of `xs` (1-based; k ≤ xs.length). */
function kthSmallest(xs: number[], k: number): number {
  return xs.sort((a, b) => a - b)[k - 1]!;
}
