import { EpcRow } from '../../../schemas/sources/epc.ts';
import { SCOTTISH_EPC_COLUMNS } from '../../../schemas/sources/epc-scotland.ts';
import { headerIndex, readCsvRecords } from '../csv.ts';
import { EPC_ID_COLUMNS as EW_IDS, EPC_REQUIRED as REQUIRED } from '../epc/read.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/**
 * The Scottish layout's own ids; one of them must be there (and the columns every
 * certificates file has, REQUIRED). A file with an England and Wales id (EW_IDS) is not the
 * Scottish layout: it has BUILDING_REFERENCE_NUMBER too.
 */
const IDS = ['OSG_REFERENCE_NUMBER', 'BUILDING_REFERENCE_NUMBER'] as const;
/** Markers the register writes for "no value"; treated as blank. */
const MISSING = new Set(['N/A', 'NO DATA!', 'NODATA!', 'INVALID!']);

/**
 * Descriptive header names (upper case) → column names, so that whichever of the two
 * header rows comes first, and a release with only the descriptive row, map alike.
 * `POSTTOWN` and `FLOOR_AREA` are the spellings of other releases and of the licence text.
 */
const ALIASES = new Map<string, string>([
  ...SCOTTISH_EPC_COLUMNS.map(([name, label]) => [label.toUpperCase(), name] as [string, string]),
  ['POSTTOWN', 'POST_TOWN'],
  ['FLOOR_AREA', 'TOTAL_FLOOR_AREA'],
  ['TOTAL FLOOR AREA (M2)', 'TOTAL_FLOOR_AREA'],
]);

/** Output field ← column name. */
export const SCOTTISH_EPC_DIRECT = {
  address1: 'ADDRESS1',
  address2: 'ADDRESS2',
  postcode: 'POSTCODE',
  posttown: 'POST_TOWN',
  property_type: 'PROPERTY_TYPE',
  built_form: 'BUILT_FORM',
  total_floor_area_m2: 'TOTAL_FLOOR_AREA',
  number_habitable_rooms: 'NUMBER_HABITABLE_ROOMS',
  construction_age_band: 'CONSTRUCTION_AGE_BAND',
  current_energy_rating: 'CURRENT_ENERGY_RATING',
  potential_energy_rating: 'POTENTIAL_ENERGY_RATING',
  current_energy_efficiency: 'CURRENT_ENERGY_EFFICIENCY',
  potential_energy_efficiency: 'POTENTIAL_ENERGY_EFFICIENCY',
  main_fuel: 'MAIN_FUEL',
  tenure: 'TENURE',
  lodgement_date: 'LODGEMENT_DATE',
  inspection_date: 'INSPECTION_DATE',
} as const;

export interface ScottishEpcHeader {
  col: Map<string, number>;
  /** True when the row held the column names themselves, not only descriptive ones. */
  named: boolean;
}

/** A header row's index, or undefined when the row is not a Scottish certificates header. */
export function scottishEpcHeader(fields: string[]): ScottishEpcHeader | undefined {
  const upper = fields.map((f) => f.trim().toUpperCase());
  const col = headerIndex(upper.map((h) => ALIASES.get(h) ?? h)).index;
  if (!IDS.some((c) => col.has(c)) || REQUIRED.some((c) => !col.has(c))) return undefined;
  if (!col.has('OSG_REFERENCE_NUMBER') && EW_IDS.some((c) => col.has(c))) return undefined;
  return { col, named: IDS.some((c) => upper.includes(c)) };
}

/**
 * Streams the Scottish EPC Register's domestic certificates (schemas/sources/epc-scotland.ts)
 * as the same normalised rows as England and Wales certificates (`EpcRow`, country
 * Scotland), so they stage into one table. Either header row may come first; the second
 * is skipped. The certificate id is REPORT_REFERENCE_NUMBER where the release has it, else
 * the register's property id with the lodgement date (releases of current certificates
 * hold one per property). Rows whose field count differs from the header are rejected as
 * `wrong_column_count`, rows failing validation as `invalid:<field>`.
 */
export async function* readScottishEpc(path: string, rejects: RejectLog): AsyncGenerator<EpcRow> {
  let header: ScottishEpcHeader | undefined;
  let width = 0;
  let headerRows = 0;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!header) {
      header = scottishEpcHeader(fields);
      if (!header) {
        throw new Error(
          `${path}: not a Scottish EPC certificates file (needs one of ${IDS.join('/')} and ${REQUIRED.join(', ')})`,
        );
      }
      width = fields.length;
      headerRows = 1;
      continue;
    }
    if (headerRows === 1) {
      headerRows = 2;
      const other = scottishEpcHeader(fields);
      if (other) {
        if (!header.named && other.named) header = other;
        continue;
      }
    }
    if (fields.length !== width) {
      rejects.add('wrong_column_count', line, `${fields.length} fields, expected ${width}`);
      continue;
    }
    const c = header.col;
    const get = (name: string): string | undefined => {
      const i = c.get(name);
      if (i === undefined) return undefined;
      const v = fields[i]?.trim() ?? '';
      return MISSING.has(v.toUpperCase()) ? '' : v;
    };
    const report = get('REPORT_REFERENCE_NUMBER');
    const brn = get('BUILDING_REFERENCE_NUMBER');
    const lodged = get('LODGEMENT_DATE');
    const candidate: Record<string, string | undefined> = {
      certificate_id: report || (brn && lodged ? `${brn}:${lodged}` : undefined),
      uprn: osgUprn(get('OSG_REFERENCE_NUMBER')),
      country: 'Scotland',
    };
    for (const [field, name] of Object.entries(SCOTTISH_EPC_DIRECT)) candidate[field] = get(name);
    const row = validateRow(EpcRow, candidate, rejects, line);
    if (row) yield row;
  }
}

/** OSG_REFERENCE_NUMBER is the UPRN, sometimes written as a float (`906012345.0`); 0 means none. */
function osgUprn(v: string | undefined): string | undefined {
  const m = /^(\d+)(?:\.0*)?$/.exec(v ?? '');
  if (!m) return v || undefined;
  return /^0+$/.test(m[1]!) ? undefined : m[1];
}
