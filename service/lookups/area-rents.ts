import { chooseArea, type ChosenFigure } from '../domain/area-evidence.ts';
import type { Place } from '../location/resolve.ts';
import { MAX_BEDROOM_GROUP } from '../domain/rents.ts';
import { areaChain, r2 } from './areas.ts';
import type { AreaTable } from './keyed.ts';
import type { KeyedRow, LookupTables } from './tables.ts';

export type RentLevel = 'sector' | 'outcode' | 'district';

/** The area a place asks about for the area rent endpoints: its sector, outcode or local authority. */
export function askedArea(place: Place): { level: RentLevel; code: string | null } {
  if (place.kind === 'outcode') return { level: 'outcode', code: place.outcode };
  if (place.kind === 'local_authority') return { level: 'district', code: place.la_code };
  return { level: 'sector', code: place.sector };
}

/** The asked area and each wider one up to the local authority, with the row `select` picks from a keyed table for it. */
export function figureChain<Row, Picked extends Row = Row>(
  t: LookupTables, rows: AreaTable<Row>, asked: { level: RentLevel; code: string }, laCode: string | null,
  select: (areaRows: readonly Row[]) => Picked | undefined,
) {
  return areaChain(t, asked.level, asked.code, laCode).map((a) => ({ ...a, row: select(rows.get(`${a.level}:${a.code}`)) }));
}

/**
 * For each row picked by `select` from a keyed table, the asked area's figure or the nearest
 * wider area's that is `enough` (domain/area-evidence.ts).
 */
export function chooseFrom<Row, Picked extends Row = Row>(
  t: LookupTables, rows: AreaTable<Row>, asked: { level: RentLevel; code: string }, laCode: string | null,
  select: (areaRows: readonly Row[]) => Picked | undefined, enough: (row: Picked) => boolean,
): ChosenFigure<Picked> | undefined {
  return chooseArea(figureChain(t, rows, asked, laCode, select), enough);
}

/** A yield whose rent is the area's own (enough lets) or shrunk toward a wider area's; an unshrunk thin rent is not enough. */
const ENOUGH_RENT = new Set(['evidence', 'shrunk', 'ons_district']);

type RentRow = KeyedRow<'lookup_area_rents'>;
/** A rents row with the whole of its yield: the yield, the median price and the sales behind it. */
type YieldRow = RentRow & { gross_yield_pct: number; yield_median_price: number; yield_sales: number };
const hasYield = (r: RentRow): r is YieldRow => r.gross_yield_pct !== null && r.yield_median_price !== null && r.yield_sales !== null;

/**
 * GET /yields' figure for `b` bedrooms (4 = four or more) of `area`, or of the nearest wider
 * area with one, with a note saying why when widened or thin; null when no area has one.
 */
export function areaYield(t: LookupTables, area: { level: RentLevel; code: string }, laCode: string | null, b: number) {
  // The area rents rows carry their yield where yields_area has one (lookup_area_stats_tables.sql).
  // A yield without its price or its sales is no figure (every figure is quoted with its
  // sample): the wider area answers. yields_area gives all three wherever it has a row.
  const chosen = chooseFrom(t, t.rows.rents, area, laCode, (rows) => rows.find((r): r is YieldRow => r.bedrooms === b && hasYield(r)),
    (r) => ENOUGH_RENT.has(r.source));
  if (!chosen) return null;
  const r = chosen.row;
  const source = r.source;
  const thin = !chosen.enough || source !== 'evidence';
  const where = `${chosen.level} ${chosen.code}`;
  const note = !chosen.enough
    ? `no area up to ${where} has a yield on enough lets: its rent is from ${r.sample_size} lets`
    : chosen.widened
      ? `${area.level} ${area.code} has too few ${b === MAX_BEDROOM_GROUP ? '4+' : b}-bedroom sales or lets for a yield of its own (at least 5 sales and a rent); these are the ${where}'s`
      : source === 'shrunk' ? `the rent rests on ${r.sample_size} lets, shrunk toward the ${r.prior_level ?? 'wider area'}'s figure` : null;
  return {
    bedrooms: b,
    gross_yield_pct: r.gross_yield_pct,
    median_rent_pcm: r2(r.median_pcm)!,
    rent_sample_size: r.sample_size,
    rent_source: source as 'evidence' | 'shrunk' | 'ons_district' | 'evidence_thin',
    rent_prior_level: r.prior_level,
    median_price: r.yield_median_price,
    sales_count: r.yield_sales,
    area: { level: chosen.level as RentLevel, code: chosen.code, widened: chosen.widened },
    thin,
    note,
  };
}
