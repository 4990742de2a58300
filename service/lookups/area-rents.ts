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

/**
 * For each row picked by `select` from a keyed table, the asked area's figure or the nearest
 * wider area's that is `enough` (domain/area-evidence.ts).
 */
export function chooseFrom(
  t: LookupTables, rows: KeyedRows, asked: { level: RentLevel; code: string }, laCode: string | null,
  select: (areaRows: readonly Row[]) => Row | undefined, enough: (row: Row) => boolean,
): ChosenFigure<Row> | undefined {
  const chain = areaChain(t, asked.level, asked.code, laCode).map((a) => ({ ...a, row: select(rows.get(`${a.level}:${a.code}`)) }));
  return chooseArea(chain, enough);
}
