import { EpcRow } from '../../../schemas/sources/epc.ts';
import { headerIndex, readCsvRecords } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** Certificate id column, by export: old ODC bulk, register open-data export, data warehouse. */
export const EPC_ID_COLUMNS = ['LMK_KEY', 'ASSESSMENT_ID', 'CERTIFICATE_NUMBER'] as const;
/** Columns every accepted layout has; their absence means this is not a certificates file. */
export const EPC_REQUIRED = ['POSTCODE', 'LODGEMENT_DATE', 'CURRENT_ENERGY_RATING'] as const;
/** Markers the register writes for "no value"; treated as blank. */
const MISSING = new Set(['N/A', 'NO DATA!', 'INVALID!']);

/** Output field ← source column (upper case), where the name differs only by case or unit. */
export const EPC_DIRECT = {
  address1: 'ADDRESS1',
  address2: 'ADDRESS2',
  address3: 'ADDRESS3',
  postcode: 'POSTCODE',
  posttown: 'POSTTOWN',
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
  region: 'REGION',
  country: 'COUNTRY',
} as const;

/**
 * Streams EPC domestic certificates from any of the published CSV layouts, mapping columns
 * by name case-insensitively: the old opendatacommunities `certificates.csv` (LMK_KEY), the
 * register's open-data and Northern Ireland exports (ASSESSMENT_ID, repeated column names,
 * ADDRESS2/3 before ADDRESS1) and the data-warehouse export (CERTIFICATE_NUMBER, DD/MM/YYYY
 * dates), and lower-case derivatives of them. Rows whose field count differs from the
 * header (the NI export's trailing line of commas) are rejected as `wrong_column_count`.
 */
export async function* readEpc(path: string, rejects: RejectLog): AsyncGenerator<EpcRow> {
  let col: Map<string, number> | undefined;
  let idCol = 0;
  let width = 0;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!col) {
      col = headerIndex(fields.map((f) => f.trim().toUpperCase())).index;
      const id = EPC_ID_COLUMNS.find((c) => col!.has(c));
      const missing = EPC_REQUIRED.filter((c) => !col!.has(c));
      if (id === undefined || missing.length > 0) {
        throw new Error(
          `${path}: not an EPC certificates file (needs one of ${EPC_ID_COLUMNS.join('/')} and ${EPC_REQUIRED.join(', ')}; missing ${[...(id ? [] : ['id']), ...missing].join(', ')})`,
        );
      }
      idCol = col.get(id)!;
      width = fields.length;
      continue;
    }
    if (fields.length !== width) {
      rejects.add('wrong_column_count', line, `${fields.length} fields, expected ${width}`);
      continue;
    }
    const c = col;
    const get = (name: string): string | undefined => {
      const i = c.get(name);
      if (i === undefined) return undefined;
      const v = fields[i]?.trim() ?? '';
      return MISSING.has(v.toUpperCase()) ? '' : v;
    };
    const candidate: Record<string, string | undefined> = {
      certificate_id: fields[idCol]?.trim(),
      uprn: uprnFrom(get('UPRN'), get('BUILDING_REFERENCE_NUMBER')),
    };
    for (const [field, name] of Object.entries(EPC_DIRECT)) candidate[field] = get(name);
    const row = validateRow(EpcRow, candidate, rejects, line);
    if (row) yield row;
  }
}

/**
 * The UPRN column holds a bare number (ODC) or `UPRN-000000000123` (register, warehouse);
 * without it, the register's BUILDING_REFERENCE_NUMBER carries the same `UPRN-` form. A
 * bare-number BUILDING_REFERENCE_NUMBER (ODC) is the register's own building id, not a
 * UPRN, so it is ignored. UPRN 0 (the exports' placeholder) means none.
 */
function uprnFrom(uprn: string | undefined, buildingRef: string | undefined): string | undefined {
  let v = uprn?.replace(/^UPRN-/i, '');
  if (!v) v = /^UPRN-(\d+)$/i.exec(buildingRef ?? '')?.[1];
  if (!v) return undefined;
  return /^0+$/.test(v) ? undefined : v;
}
