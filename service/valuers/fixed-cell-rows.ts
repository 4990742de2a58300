import { BlockFileError } from '../../lib/files/block-file.ts';
import { cellRanges } from '../../lib/geo/grid-cells.ts';
import { haversineM, localMetres, radiusBox } from '../../lib/geo/points.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';

/**
 * The radius search of CellPoints (lib/files/cell-points.ts) over a file of points by cell whose
 * columns are all numbers (`num` or `small`) and never null, without a row object: each row's
 * values are read at fixed offsets into one reused array (`Float64Array`, the columns in the
 * file's order), so a search over a thousand rows allocates nothing per row. The same rows
 * and distances as CellPoints.within (the box first, then the haversine).
 */
export class FixedCellRows {
  private readonly at: Int32Array;
  private readonly small: Uint8Array;
  private readonly nullBytes: number;
  private readonly values: Float64Array;
  private readonly lat: number;
  private readonly lng: number;

  constructor(readonly file: KeyedRowsFile<unknown>, readonly cellM: number, latName: string, lngName: string) {
    const cols = file.meta.columns;
    this.at = new Int32Array(cols.length);
    this.small = new Uint8Array(cols.length);
    let at = 0;
    cols.forEach((c, i) => {
      if (c.kind !== 'num' && c.kind !== 'small') throw new BlockFileError(`${file.path}: column ${c.name} is ${c.kind}, not a number at a fixed offset`);
      this.at[i] = at;
      this.small[i] = c.kind === 'small' ? 1 : 0;
      at += c.kind === 'small' ? 4 : 8;
    });
    this.nullBytes = (cols.length + 7) >> 3;
    this.values = new Float64Array(cols.length);
    this.lat = cols.findIndex((c) => c.name === latName);
    this.lng = cols.findIndex((c) => c.name === lngName);
    if (this.lat < 0 || this.lng < 0) throw new BlockFileError(`${file.path}: no ${latName} and ${lngName} columns`);
  }

  /** The index of column `name` in the values `within` gives. */
  column(name: string): number {
    const i = this.file.meta.columns.findIndex((c) => c.name === name);
    if (i < 0) throw new BlockFileError(`${this.file.path}: no column ${name}`);
    return i;
  }

  /**
   * Calls `visit(values, metres)` for every row within `radiusM` (great-circle, boundary
   * included) of (lat, lng), in the file's order; `values` is reused: read it during the call.
   */
  within(lat: number, lng: number, radiusM: number, visit: (values: Float64Array, d: number) => void): void {
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !(radiusM >= 0)) return;
    const [minX, minY, maxX, maxY] = radiusBox(lat, lng, radiusM);
    const { at, small, values, nullBytes } = this;
    const latAt = at[this.lat]!, lngAt = at[this.lng]!;
    let dv: DataView | undefined;
    const row = (b: Buffer, nulls: number) => {
      for (let i = 0; i < nullBytes; i++) if (b[nulls + i] !== 0) throw new BlockFileError(`${this.file.path}: a row has a null value (this file has none)`);
      if (dv?.buffer !== b.buffer) dv = new DataView(b.buffer);
      const o = b.byteOffset + nulls + nullBytes;
      const pLat = dv.getFloat64(o + latAt, true), pLng = dv.getFloat64(o + lngAt, true);
      // The box first, as the R-tree searches it: the haversine is then the same test.
      const [x, y] = localMetres(pLat, pLng);
      if (x < minX || x > maxX || y < minY || y > maxY) return;
      const d = haversineM(lat, lng, pLat, pLng);
      if (!(d <= radiusM)) return;
      for (let i = 0; i < values.length; i++) values[i] = small[i] ? dv.getFloat32(o + at[i]!, true) : dv.getFloat64(o + at[i]!, true);
      visit(values, d);
    };
    for (const [lo, hi] of cellRanges(minX, minY, maxX, maxY, this.cellM)) this.file.rangeRaw(lo, hi, row);
  }
}
