import type { CodePointRow } from '../../../schemas/sources/codepoint.ts';
import { postcodeDocs } from '../onspd/source.ts';
import { notCsv, same, source } from '../source.ts';
import { readCodePoint } from './read.ts';

export const codepoint = source<CodePointRow, 'codepoint'>({
  kind: 'codepoint', version: 1,
  folders: ['postcodes'],
  // A headerless file whose first cell is a postcode and the next three integers.
  sniff: async (f) => notCsv(f) ?? postcodeDocs(f) ?? (/^"?[a-z]{1,2}[0-9][a-z0-9]? ?[0-9][a-z]{2}"?,\d+,\d+,\d+,/.test(await f.head()) || undefined),
  unclaimed: 'not ONSPD or Code-Point Open',
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
