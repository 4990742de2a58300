import { AddressBaseRow } from '../../schemas/sources/addressbase.ts';
import { headerIndex, readCsvRecords } from './csv.ts';
import type { RejectLog } from './rejects.ts';
import { validateRow } from './validate.ts';

/** Columns a row cannot do without; the rest of the published header is optional. */
const REQUIRED = [
  'UPRN', 'CLASSIFICATION_CODE', 'EASTING', 'NORTHING', 'LATITUDE', 'LONGITUDE', 'SINGLE_LINE_ADDRESS', 'POSTCODE',
] as const;

/** Output field ← AddressBase Core column. */
const COLUMNS = {
  uprn: 'UPRN',
  parent_uprn: 'PARENT_UPRN',
  classification_code: 'CLASSIFICATION_CODE',
  easting: 'EASTING',
  northing: 'NORTHING',
  lat: 'LATITUDE',
  lng: 'LONGITUDE',
  single_line_address: 'SINGLE_LINE_ADDRESS',
  organisation: 'ORGANISATION',
  sub_building: 'SUB_BUILDING',
  building_name: 'BUILDING_NAME',
  building_number: 'BUILDING_NUMBER',
  street_name: 'STREET_NAME',
  locality: 'LOCALITY',
  town_name: 'TOWN_NAME',
  post_town: 'POST_TOWN',
  postcode: 'POSTCODE',
  gss_code: 'GSS_CODE',
  change_code: 'CHANGE_CODE',
} as const;

/**
 * Streams an AddressBase Core CSV (Ordnance Survey's licensed address product; the synthetic
 * region writes one). Columns are mapped by header name, case-insensitively, so a supply
 * with extra or reordered columns still reads. CHANGE_CODE is reported, not applied.
 */
export async function* readAddressBase(path: string, rejects: RejectLog): AsyncGenerator<AddressBaseRow> {
  let col: Map<string, number> | undefined;
  let width = 0;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!col) {
      col = headerIndex(fields.map((f) => f.trim().toUpperCase())).index;
      const missing = REQUIRED.filter((c) => !col!.has(c));
      if (missing.length > 0) throw new Error(`${path}: not an AddressBase Core file (no ${missing.join(', ')} column)`);
      width = fields.length;
      continue;
    }
    if (fields.length !== width) {
      rejects.add('wrong_column_count', line, `${fields.length} fields, expected ${width}`);
      continue;
    }
    const c = col;
    const candidate: Record<string, string | undefined> = {};
    for (const [field, name] of Object.entries(COLUMNS)) {
      const i = c.get(name);
      candidate[field] = i === undefined ? undefined : fields[i];
    }
    const row = validateRow(AddressBaseRow, candidate, rejects, line);
    if (row) yield row;
  }
}
