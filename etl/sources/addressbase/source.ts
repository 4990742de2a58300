import type { AddressBaseRow } from '../../../../../schemas/sources/addressbase.ts';
import type { CodePointRow } from '../../../../../schemas/sources/codepoint.ts';
import type { OnspdRow } from '../../../../../schemas/sources/onspd.ts';
import type { OsUprnRow } from '../../../../../schemas/sources/os-uprn.ts';
import { readAddressBase } from '../../../../sources/addressbase.ts';
import { readCodePoint } from '../../../../sources/codepoint.ts';
import { readOnspd } from '../../../../sources/onspd.ts';
import { readOsUprn } from '../../../../sources/os-uprn.ts';
import { same, spec } from './spec.ts';

const yyyymmToDate = (v: string | undefined) => (v ? `${v.slice(0, 4)}-${v.slice(4, 6)}-01` : undefined);

export const addressbase = spec<AddressBaseRow>({
  kind: 'addressbase', version: 1,
  table: 'stg_addressbase',
  read: readAddressBase,
  columns: [
    ...same<AddressBaseRow>('BIGINT', 'uprn', 'parent_uprn'),
    ...same<AddressBaseRow>('VARCHAR', 'classification_code'),
    ...same<AddressBaseRow>('DOUBLE', 'easting', 'northing', 'lat', 'lng'),
    ...same<AddressBaseRow>('VARCHAR', 'single_line_address', 'organisation', 'sub_building', 'building_name',
      'building_number', 'street_name', 'locality', 'town_name', 'post_town', 'postcode', 'gss_code', 'change_code'),
  ],
});

export const osUprn = spec<OsUprnRow>({
  kind: 'os_uprn', version: 1,
  table: 'stg_os_uprn',
  read: readOsUprn,
  columns: [...same<OsUprnRow>('BIGINT', 'uprn'), ...same<OsUprnRow>('DOUBLE', 'x', 'y', 'lat', 'lng')],
});

export const onspd = spec<OnspdRow>({
  kind: 'onspd', version: 1,
  table: 'stg_onspd',
  read: readOnspd,
  columns: [
    ...same<OnspdRow>('VARCHAR', 'pcds', 'dointr', 'doterm'),
    ...same<OnspdRow>('BOOLEAN', 'terminated'),
    ...same<OnspdRow>('DOUBLE', 'oseast1m', 'osnrth1m', 'lat', 'lng'),
    ...same<OnspdRow>('VARCHAR', 'ctry', 'country', 'oslaua', 'osward', 'rgn', 'pcon', 'lsoa21', 'msoa21'),
    ...same<OnspdRow>('INTEGER', 'imd'),
  ],
  date: (r) => yyyymmToDate(r.doterm ?? r.dointr),
});

export const codepoint = spec<CodePointRow>({
  kind: 'codepoint', version: 1,
  table: 'stg_codepoint',
  read: readCodePoint,
  columns: [
    ...same<CodePointRow>('VARCHAR', 'postcode'),
    ...same<CodePointRow>('INTEGER', 'positional_quality'),
    ...same<CodePointRow>('BOOLEAN', 'has_location'),
    ...same<CodePointRow>('DOUBLE', 'easting', 'northing', 'lat', 'lng'),
    ...same<CodePointRow>('VARCHAR', 'country_code', 'admin_county_code', 'admin_district_code', 'admin_ward_code'),
  ],
});
