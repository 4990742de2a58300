import { AddressBaseRow } from '../../../schemas/sources/addressbase.ts';
import { readHeadedCsv } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** Columns a row cannot do without; the rest of the published header is optional. */
export const ADDRESSBASE_REQUIRED = [
  'UPRN', 'CLASSIFICATION_CODE', 'EASTING', 'NORTHING', 'LATITUDE', 'LONGITUDE', 'SINGLE_LINE_ADDRESS', 'POSTCODE',
] as const;

/** Output field ← AddressBase Core column. */
export const ADDRESSBASE_COLUMNS = {
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
  const records = readHeadedCsv(path, rejects, {
    what: 'an AddressBase Core file', required: ADDRESSBASE_REQUIRED, normalise: (h) => h.trim().toUpperCase(), checkWidth: true,
  });
  for await (const { get, line } of records) {
    const candidate: Record<string, string | undefined> = {};
    for (const [field, name] of Object.entries(ADDRESSBASE_COLUMNS)) candidate[field] = get(name);
    const row = validateRow(AddressBaseRow, candidate, rejects, line);
    if (row) yield row;
  }
}
