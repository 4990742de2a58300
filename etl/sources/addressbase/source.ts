import type { AddressBaseRow } from '../../../schemas/sources/addressbase.ts';
import { notCsv, same, source } from '../source.ts';
import { addressbaseNative } from './native.ts';
import { readAddressBase } from './read.ts';

export const addressbase = source<AddressBaseRow, 'addressbase'>({
  kind: 'addressbase', version: 1,
  folders: ['addressbase'],
  sniff: (f) => notCsv(f) ?? true,
  table: 'stg_addressbase',
  read: readAddressBase,
  native: addressbaseNative,
  columns: [
    ...same<AddressBaseRow>('BIGINT', 'uprn', 'parent_uprn'),
    ...same<AddressBaseRow>('VARCHAR', 'classification_code'),
    ...same<AddressBaseRow>('DOUBLE', 'easting', 'northing', 'lat', 'lng'),
    ...same<AddressBaseRow>('VARCHAR', 'single_line_address', 'organisation', 'sub_building', 'building_name',
      'building_number', 'street_name', 'locality', 'town_name', 'post_town', 'postcode', 'gss_code', 'change_code'),
  ],
});
