import { chooseArea, type ChosenFigure } from '../domain/area-evidence.ts';
import type { Place } from '../location/resolve.ts';
import { areaChain, type Row } from './areas.ts';
import type { KeyedRows } from './keyed.ts';
import type { LookupTables } from './tables.ts';

export type RentLevel = 'sector' | 'outcode' | 'district';

/** The area a place asks about for the area rent endpoints: its sector, outcode or local authority. */
export function askedArea(place: Place): { level: RentLevel; code: string | null } {
  if (place.kind === 'outcode') return { level: 'outcode', code: place.outcode };
  if (place.kind === 'local_authority') return { level: 'district', code: place.la_code };
  return { level: 'sector', code: place.sector };
}

/** The asked area and each wider one up to the local authority, with the row `select` picks from a keyed table for it. */
export function figureChain(
  t: LookupTables, rows: KeyedRows, asked: { level: RentLevel; code: string }, laCode: string | null,
  select: (areaRows: readonly Row[]) => Row | undefined,
) {
  return areaChain(t, asked.level, asked.code, laCode).map((a) => ({ ...a, row: select(rows.get(`${a.level}:${a.code}`)) }));
}

/**
 * For each row picked by `select` from a keyed table, the asked area's figure or the nearest
 * wider area's that is `enough` (domain/area-evidence.ts).
 */
export function chooseFrom(
  t: LookupTables, rows: KeyedRows, asked: { level: RentLevel; code: string }, laCode: string | null,
  select: (areaRows: readonly Row[]) => Row | undefined, enough: (row: Row) => boolean,
): ChosenFigure<Row> | undefined {
  return chooseArea(figureChain(t, rows, asked, laCode, select), enough);
}
