import { cellKeyAt, cellOfMetres, cellRanges } from '../geo/grid-cells.ts';
import { haversineM, localMetres, radiusBox } from '../geo/points.ts';
import { BlockFileError } from './block-file.ts';
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
  /** The position's two columns in ascending order (as `numbersAt` reads them), and which is the latitude. */
  private readonly cols: [number, number];
  private readonly latFirst: boolean;
  private readonly pos = new Float64Array(2);

  constructor(
    readonly file: KeyedRowsFile<R>,
    readonly cellM: number,
    /** The number columns that place a row; a row with either null is in no answer. */
    position: { lat: string; lng: string } = { lat: 'lat', lng: 'lng' },
  ) {
    if (!(cellM >= 10)) throw new Error(`CellPoints: a cell of ${cellM} m (at least 10)`);
    const column = (name: string) => {
      const i = file.meta.columns.findIndex((c) => c.name === name && (c.kind === 'num' || c.kind === 'small'));
      if (i < 0) throw new BlockFileError(`${file.path}: no number column ${name} to place its rows`);
      return i;
    };
    const [lat, lng] = [column(position.lat), column(position.lng)];
    this.latFirst = lat < lng;
    this.cols = this.latFirst ? [lat, lng] : [lng, lat];
  }

  get size(): number {
    return this.file.size;
  }

  /**
   * Calls `visit(row, metres)` for every row within `radiusM` (great-circle, boundary included)
   * of (lat, lng) that `keep` (if given) accepts, in the file's order; none from a place that is
   * not one. A row is decoded only when its position, read first, is within and `keep`, which
   * sees it undecoded (`file.numbersAt(page, at, …)` reads its numbers), accepts it.
   */
  within(lat: number, lng: number, radiusM: number, visit: (row: R, d: number) => void, keep?: (page: Buffer, at: number) => boolean): void {
    let hits: Array<{ row: R; d: number }> = [];
    this.withinRaw(lat, lng, radiusM, (page, at, key, d) => {
      if (!keep || keep(page, at)) hits.push({ row: this.file.rowFrom(page, at, key), d });
    }, () => {
      // Visited once a range is read: a visitor may read through the cache itself.
      for (const h of hits) visit(h.row, h.d);
      hits = [];
    });
  }

  /**
   * `within` without decoding: `visit(page, at, key, metres)` for every row within, the row still
   * undecoded (`file.rowFrom(page, at, key)` decodes it, `file.numbersAt` reads its numbers)
   * and the page valid only during the call, so `visit` must read nothing through the cache;
   * `rangeDone` (if given) after each key range, when it may.
   */
  withinRaw(lat: number, lng: number, radiusM: number, visit: (page: Buffer, at: number, key: number, d: number) => void, rangeDone?: () => void): void {
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !(radiusM >= 0)) return;
    const [minX, minY, maxX, maxY] = radiusBox(lat, lng, radiusM);
    for (const [lo, hi] of cellRanges(minX, minY, maxX, maxY, this.cellM)) {
      this.placed(lo, hi, (page, at, key, pLat, pLng) => {
        // The box first, as the R-tree searches it: the haversine is then the same test.
        const [x, y] = localMetres(pLat, pLng);
        if (x < minX || x > maxX || y < minY || y > maxY) return;
        const d = haversineM(lat, lng, pLat, pLng);
        if (d <= radiusM) visit(page, at, key, d);
      });
      rangeDone?.();
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
    const take = (lo: number, hi: number) => {
      const near: typeof found = [];
      this.placed(lo, hi, (page, at, key, pLat, pLng, rowInKey) => {
        const [px, py] = localMetres(pLat, pLng);
        const d = Math.hypot(px - x, py - y);
        if (d <= maxM) near.push({ row: this.file.rowFrom(page, at, key), d, cell: key, at: rowInKey });
      });
      // Kept once the range is read: `keep` may read through the cache itself.
      for (const f of near) if (!keep || keep(f.row)) found.push(f);
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

  /**
   * Each row of keys `lo` to `hi` that has a position, in the file's order: `visit(page, at, key,
   * lat, lng, rowInKey)` with the row still undecoded (`file.rowFrom(page, at, key)` decodes it,
   * during the call only) and its number among its key's rows (every row counted).
   */
  private placed(lo: number, hi: number, visit: (page: Buffer, at: number, key: number, lat: number, lng: number, rowInKey: number) => void): void {
    const pos = this.pos;
    const [latSlot, lngSlot] = this.latFirst ? [0, 1] : [1, 0];
    let cell = NaN;
    let n = 0;
    this.file.rangeRaw(lo, hi, (page, at, key) => {
      n = key === cell ? n + 1 : 0;
      cell = key as number;
      this.file.numbersAt(page, at, this.cols, pos);
      const pLat = pos[latSlot]!;
      const pLng = pos[lngSlot]!;
      if (Number.isNaN(pLat) || Number.isNaN(pLng)) return;
      visit(page, at, cell, pLat, pLng, n);
    });
  }
}

/** The k-th smallest of `xs` (1-based; k ≤ xs.length). */
function kthSmallest(xs: number[], k: number): number {
  return xs.sort((a, b) => a - b)[k - 1]!;
}
