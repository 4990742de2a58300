import { localMetres } from './points.ts';

/**
 * Square cells of a grid in local metres (`localMetres`), numbered so that a file of points
 * keyed by cell (lib/files/keyed-rows-file.ts) keeps each row of cells, west to east, in one
 * run of keys: a radius query reads one key range per row of cells its box spans (issue 46:
 * the comparables and the sale valuer's evidence read where they lie).
 *
 * key = (row + 2^20) × 2^21 + (column + 2^20): exact in a double for any cell of at least
 * 10 m anywhere (|x|, |y| < 2 × 10^7 m), and ascending with the row, then the column.
 */
const OFFSET = 2 ** 20;
const SPAN = 2 ** 21;

/** The key of the cell holding local metres (x, y) for cells of `sizeM`. */
export function cellKeyOfMetres(x: number, y: number, sizeM: number): number {
  return (Math.floor(y / sizeM) + OFFSET) * SPAN + (Math.floor(x / sizeM) + OFFSET);
}

/** The key of the cell in column `col` (west to east) and row `row` (south to north). */
export function cellKey(col: number, row: number): number {
  return (row + OFFSET) * SPAN + (col + OFFSET);
}

/** The key of the cell holding (lat, lng) for cells of `sizeM`. */
export function cellKeyOf(lat: number, lng: number, sizeM: number): number {
  const [x, y] = localMetres(lat, lng);
  return cellKeyOfMetres(x, y, sizeM);
}

/**
 * The key ranges, one per row of cells south to north, of every cell that holds a point of the
 * metre box (edges included): a point in the box is in one of them.
 */
export function cellRanges(minX: number, minY: number, maxX: number, maxY: number, sizeM: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (!(minX <= maxX && minY <= maxY)) return out;
  const [c0, c1] = [Math.floor(minX / sizeM), Math.floor(maxX / sizeM)];
  for (let r = Math.floor(minY / sizeM); r <= Math.floor(maxY / sizeM); r++) out.push([(r + OFFSET) * SPAN + c0 + OFFSET, (r + OFFSET) * SPAN + c1 + OFFSET]);
  return out;
}

/** What a SQL statement binds to compute the same key as `cellKeyOfMetres` (etl comparables_rows.sql). */
export const CELL_KEY_PARAMS = { cell_offset: OFFSET, cell_span: SPAN, cos54: Math.cos((54 * Math.PI) / 180) };

/** The column and row of the cell holding local metres (x, y) for cells of `sizeM`. */
export function cellOfMetres(x: number, y: number, sizeM: number): [col: number, row: number] {
  return [Math.floor(x / sizeM), Math.floor(y / sizeM)];
}

/** The key of the cell at column `col`, row `row` (as `cellKeyOfMetres` numbers them). */
export function cellKeyAt(col: number, row: number): number {
  return (row + OFFSET) * SPAN + (col + OFFSET);
}
